//! WXF and Chinese move notation (print and parse).
