//! The clause tests of Ordo and Ordo X, generic over the [`Engine`](ordo_core::rules::Engine)
//! trait: each `pub fn NAME<E: Engine>()` names the clause it covers (in its name and its doc
//! comment) and panics when the engine `E` breaks it. An engine's crate runs them all with
//! one line in its integration tests:
//!
//! ```ignore
//! ordo_clause_tests::clause_tests!(ordo_reference::Reference);
//! ```
//!
//! which defines the modules `classic` and `x`, one `#[test]` per clause test. The crate
//! depends on `ordo-core` alone, so the engines that use it share no code through it.

pub mod classic;
pub mod helpers;
pub mod x;

/// Instantiates the generic tests `$name` of the module `$module` of this crate as one
/// `#[test]` each on the engine `$engine`, in a module `$module` of the caller.
#[macro_export]
macro_rules! engine_tests {
    ($engine:ty, $module:ident; $($name:ident),* $(,)?) => {
        mod $module {
            $( #[test] fn $name() { $crate::$module::$name::<$engine>() } )*
        }
    };
}

/// Instantiates every clause test, classic (module `classic`) and Ordo X (module `x`), on the
/// engine `$engine`, a type path that resolves from any module (`ordo_bitboard::Bitboard`).
#[macro_export]
macro_rules! clause_tests {
    ($engine:ty) => {
        $crate::classic_clause_tests!($engine);
        $crate::x_clause_tests!($engine);
    };
}
