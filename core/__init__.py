"""The playground's engine: tokens, tokenizers, training algorithms, corpora and metrics.

Nothing in this package imports Streamlit or plotly (a test checks it); the UI layer calls in.
"""
