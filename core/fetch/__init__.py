"""Where files come from: the pinned lookup order (``sources``) and the transport (``downloads``).

``sources.obtain(spec)`` looks in PLAYGROUND_DATA_DIR, the user cache, an installed package, then
the file's canonical remote, checking every copy against its sha256 pin; ``downloads`` fetches a
remote with pooch; ``derived`` keeps in the cache folder what is computed once from a pinned file
(checksummed, named by what it was made from). Used by the pretrained registry and the corpus catalog alike.
What it does not hold: what a file is or how it is read (``core.pretrained.registry``,
``core.corpora``, ``core.tax.parallel_sources`` name their files and parse them).
"""
