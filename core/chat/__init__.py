"""Chat formats: a conversation rendered the way each model family sees it.

Each family's template as data (formats), a model's own Jinja template rendered in a worker
process with limits (templates) and the sandboxed environment it runs in (template_env).
What it does not hold: the tokenizers that count the result (``core.pretrained``).
"""
