//! Every clause test of `ordo-clause-tests` on the reference engine (`classic::NAME` and
//! `x::NAME`, each naming the clause it covers).

ordo_clause_tests::clause_tests!(ordo_reference::Reference);
