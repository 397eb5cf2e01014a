"""What the Algorithms page says about each algorithm: how it works, and where ours differs from the
reference libraries. Markdown, for ``st.markdown``; every claim here is checked against the engines'
docstrings (``core.bpe``, ``core.wordpiece``, ``core.unigram``)."""

from __future__ import annotations

INTRO = (
    "BPE, WordPiece and Unigram, each trained here on the same corpus, cut the same text at the "
    "vocabulary sizes you pick: one row per algorithm, one column per size."
)

GRID_NOTE = (
    "Each row trains once: a smaller size is the start of the same run (BPE its first merges, "
    "WordPiece its first pieces; Unigram prunes through every size in one run). Each algorithm "
    "pre-tokenizes as it usually does: BPE with GPT-2's pattern (a space belongs to the next word), "
    "WordPiece like BERT (whitespace dropped, punctuation alone), Unigram like SentencePiece "
    "(`▁` marks a word's start), or, with the textbook's recipe picked, by GPT-2-style pre-tokens. "
    "Red dashed pills are unknown tokens: text the model lost."
)

HOW = {
    "bpe": (
        "**BPE** starts from bytes (or characters) and, again and again, merges the most frequent pair "
        "of neighbouring symbols into a new symbol. Encoding replays the merges in the order they were "
        "learnt, so a vocabulary of *n* is exactly the first *n* − 256 merges of a longer run "
        "(character BPE: *n* minus its alphabet)."
    ),
    "wordpiece": (
        "**WordPiece** also grows from characters (a word is its first character, then `##` "
        "continuations) and merges pairs, but it picks the pair with the best "
        "count(ab) / (count(a) · count(b)): parts that rarely occur apart, not the most frequent pair. "
        "Encoding ignores the merges: from the start of each word it takes the longest piece in the "
        "vocabulary, then the longest `##` piece for the rest; a word it cannot finish becomes one `[UNK]`."
    ),
    "unigram": (
        "**Unigram** works the other way round: it starts from far too many pieces (frequent "
        "substrings and every character), gives each a probability with EM, and prunes the pieces the "
        "corpus would miss least until the size is reached. A word's tokens are its most probable "
        "segmentation, the best path through the lattice of every piece that fits; the other "
        "segmentations keep a probability, which is what the n best and sampling show."
    ),
}

DIFFERS = {
    "bpe": (
        "Where ours differs: ties go to the pair seen first in the corpus (Hugging Face tokenizers "
        "breaks them by its own pair ids, so the two vocabularies part at the first tie); no special "
        "tokens and no normalizer."
    ),
    "wordpiece": (
        "Where ours differs: Hugging Face's `WordPieceTrainer` merges the most frequent pair (BPE with "
        "`##`) and only encodes like WordPiece; ours trains with the score, as the WordPiece papers and "
        "Hugging Face's course describe. BERT's normalizer (lowercasing, accent stripping) is not applied."
    ),
    "unigram": (
        "Where ours differs from SentencePiece's trainer: pruning goes straight to the target size "
        "(SentencePiece stops at 1.1 times it and keeps the highest scores), every character of the "
        "corpus is kept (its default drops the rarest 0.05 %), no NFKC normalization or byte fallback; "
        "a smaller size continues the run of the larger ones, so it can differ a little from a run to "
        "that size alone."
    ),
}

DROPOUT = (
    "**BPE-dropout** (Provilkov et al., 2020) skips each merge with probability *p* while encoding, so "
    "the same text comes out cut in different ways; a model trained on such samples learns that a word "
    "can be spelled several ways. *p* = 0 is plain BPE, *p* = 1 leaves bytes (or characters). A skipped "
    "merge can still apply once another merge has (Hugging Face tokenizers' rule)."
)

WORDPIECE_STEPS = (
    "Greedy longest match, look-up by look-up: at each position the rest of the word is tried first, "
    "then one character shorter, until a piece is found (struck-through candidates are not in the "
    "vocabulary). If nothing fits at some position, the **whole word** becomes `[UNK]`, not just the "
    "character that failed."
)

SAMPLING = (
    "**Subword regularization** (Kudo, 2018) draws a segmentation with probability proportional to "
    "p(segmentation)^α: α = 0 makes every segmentation equally likely, a larger α comes closer to the "
    "best one."
)

RECIPES_HELP = (
    "Two Unigram recipes that differ in their pre-tokens, seed and pruning rule. SentencePiece's: ▁ words, "
    "a seed of the substrings that cover most characters, a digamma M-step, and pruning that removes the "
    "pieces whose loss costs the corpus least. The textbook chapter's: GPT-2-style pre-tokens (Python re), "
    "every substring of up to 10 characters seen twice, a plain M-step, and pruning that keeps the most "
    "probable pieces. SentencePiece's compresses better: a frequent piece that its parts can replace "
    "almost as well goes before a rarer one that nothing can stand in for."
)

HOW_TEXTBOOK = (
    "**Unigram, the textbook's recipe**: the training text is cut into pre-tokens by the chapter's "
    "pattern (GPT-2's, in Python `re`); every substring of up to 10 characters seen at least twice, plus "
    "every character, starts with probability count / total. Each round runs two EM iterations "
    "(forward–backward expected counts; p = max(expected, 10⁻⁹) / sum of expected counts), then keeps "
    "every character and the most probable longer pieces, 70 % of the vocabulary or the target, "
    "whichever is larger. A pre-token's tokens are its Viterbi path; on equal scores the earlier split "
    "point wins."
)

TEXTBOOK_DIFFERS = (
    "Why SentencePiece's recipe compresses better: probability is not usefulness. The textbook keeps the "
    "most probable pieces, so a frequent piece whose parts would do almost as well stays while a rarer "
    "piece that nothing else can replace goes; SentencePiece removes the pieces whose loss costs the "
    "corpus's likelihood least. Its digamma M-step also pushes rarely used pieces out between "
    "prunings, and its seed ranks substrings by the characters they cover."
)

PRUNING_TABLE = (
    "**The pruning rounds**, as the chapter prints them: the vocabulary each round's EM ran on, the "
    "training text's log-likelihood per character (nats, measured in the round's last E-step), and what "
    "pruning kept. The likelihood falls as pieces go: fewer pieces explain the text less well."
)
