"""Streamlit-aware helpers shared by the pages: state keys, caches, widgets, span HTML, tables.

``ui.spans`` is pure (no Streamlit import) so the span HTML can be built and tested anywhere.
"""
