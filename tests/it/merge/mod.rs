//! `urldb merge` and `urldb merge-driver`: the merge by records
//! (`properties`: random files and edit sets against a model of the
//! merge).

mod properties;
