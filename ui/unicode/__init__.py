"""Helpers of the "Unicode & bytes" page: pure HTML and table builders (``render``, ``frames``) and the
Streamlit views with their caches (``views``)."""
