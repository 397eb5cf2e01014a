"""Streamlit parts of the "Words & compression" page: caching (``cache``), the corpus picker (``corpus``),
figure builders (``figures``, pure) and the page's sections (``views``)."""
