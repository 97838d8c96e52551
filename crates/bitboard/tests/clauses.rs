//! Every clause test of `ordo-clause-tests` on the bitboard engine (`classic::NAME` and
//! `x::NAME`, each naming the clause it covers).

ordo_clause_tests::clause_tests!(ordo_bitboard::Bitboard);
