//! The folio server and command line as a library, so tests can launch it.
