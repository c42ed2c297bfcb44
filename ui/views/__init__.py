"""Per-section rendering functions of the multi-section pages (UI layer)."""
