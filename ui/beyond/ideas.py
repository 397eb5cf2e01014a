"""The page's explanations: for each idea, what it is and what it costs, in a few sentences.

Markdown, shown in an expander next to each view; kept apart so the views read as code.
"""

BYTES_IDEA = """
**The idea.** Skip the tokenizer: feed the model the text's UTF-8 bytes, 256 symbols that cover every
script, emoji and typo (ByT5, MambaByte). Nothing is ever unknown, no language is starved of
vocabulary, and spelling is visible to the model.

**The cost.** Length. A transformer's attention compares every position with every other, so a
sequence 4× longer costs 16× the attention; the layers that run once per position cost 4×. The
output layer is the one place bytes win: a softmax over 259 entries instead of 50,000–200,000.
ByT5 moved its parameters into a deep encoder and a shallow decoder to keep the cost in check, and
is still slower than a subword model of the same size on long texts.
"""
PATCHES_IDEA = """
**The idea.** The Byte Latent Transformer (Pagnoni et al., 2024) reads bytes but groups them into
*patches* on the fly: a small byte-level language model predicts each next byte, and where its
prediction is uncertain (high entropy) a new patch begins. A predictable word ending rides along in
the patch it started; a rare name breaks into many. The large model then runs once per patch, not
once per byte, so compute goes where the text is hard. Here the entropy model is a byte n-gram
model with interpolated Kneser-Ney smoothing, trained with numpy in a second.

**The cost.** An extra model runs over every byte before the big one (and while generating); a
patch has no id to look up, so small byte-level encoder and decoder layers must build and unbuild
each patch's vector; and the patches depend on the entropy model's training data: text unlike it
is all surprise and breaks into many small patches. The threshold is per byte: a script that
spends two or three bytes per character spreads its surprise over them, so at the same θ its
patches tend to be longer in bytes.

**Rules.** *Global* is the paper's global threshold: a patch starts at every byte whose entropy H
exceeds θ. *Relative* is its approximate monotonic constraint: a patch starts where the entropy
jumps up by more than θ from the byte before. Raising θ only ever merges patches.
"""
SUPERWORDS_IDEA = """
**The idea.** SuperBPE (Liu et al., 2025) trains BPE in two stages. Up to a *transition* vocabulary
size it is ordinary BPE, whose merges never cross a space. Then the whitespace pre-tokenization is
lifted (here: lines are cut only at line breaks and numbers) and training resumes, so frequent
word sequences such as ", and", " of the" or " in order to" become single tokens. At the same
vocabulary size the text takes fewer tokens (the paper: up to 33 % fewer at 200k, with t = 180k).

**The cost.** Vocabulary slots spent on word sequences are not spent on rarer words, which then
take more pieces; each superword is seen less often in training than its words; pre-tokenizing
whole lines makes encoding slower (no per-word cache); and a prompt that ends inside a would-be
superword ("… in order") is cut differently from the same text followed by more words.
"""
