//! PGN import and export for Xiangqi game records.
