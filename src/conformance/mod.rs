//! The conformance kit: test vectors, the engine protocol, and the driver that checks an
//! external engine (being built).
