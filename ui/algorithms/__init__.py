"""What only the Algorithms page uses: trained models per corpus (``store``), HTML (``render``), the
lattice chart (``figures``), explanations (``explain``), the page's parts (``views``, ``closer``) and
its link (``link``)."""
