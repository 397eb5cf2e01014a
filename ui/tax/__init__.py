"""What only the Language tax page uses: inputs and the measured table (``views``), the further
sections (``sections``) and the figures (``figures``)."""
