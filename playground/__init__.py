"""The Tokenizer Playground's command line (``python -m playground``); the app itself is ``app.py``."""
