"""What only the BPE step-by-step page uses: its views (``views``), HTML and tables (``render``), replay (``replay``)."""
