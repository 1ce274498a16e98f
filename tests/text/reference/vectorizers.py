#!/usr/bin/python3
# Writes tests/text/reference/vectorizers_expected.lua: the vocabularies
# and matrices scikit-learn 1.2.1 gives for the cases of
# tests/text/vectorizers_spec.lua.  Run with Debian's Python (it has
# scikit-learn 1.2.1):
#   /usr/bin/python3 tests/text/reference/vectorizers.py
# Corpora:
#   multilingual  tests/text/fixtures/multilingual.txt, documents separated
#                 by "\x1e\n" (Latin-1, Latin Extended-A, Greek with final
#                 sigmas, Cyrillic, Turkish dotted I, marks, numbers, CJK,
#                 emoji, odd whitespace)
#   dpkg          the paragraphs (split at blank lines) of the text files of
#                 /usr/share/doc/dpkg/spec/ (Debian's dpkg package, in every
#                 Debian system), in sorted file order
#   invalid       four byte strings with invalid UTF-8 (decode_error cases)
#   dpkg_ascii    the dpkg paragraphs that are all ASCII: the script
#                 functions of the callable cases (CALLABLES) read them the
#                 same way in Python and in Lua
# SPDX-License-Identifier: MIT
import glob
import os
import re

import sklearn
from sklearn.feature_extraction.text import (CountVectorizer, HashingVectorizer,
                                             TfidfVectorizer)

assert sklearn.__version__ == "1.2.1", sklearn.__version__
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def multilingual():
    with open(os.path.join(ROOT, "fixtures", "multilingual.txt"), encoding="utf-8",
              newline="") as f:
        return f.read().split("\x1e\n")


def dpkg():
    docs = []
    for path in sorted(glob.glob("/usr/share/doc/dpkg/spec/*.txt")):
        with open(path, encoding="utf-8") as f:
            docs += [p for p in re.split(r"\n\s*\n", f.read()) if p.strip()]
    return docs


# Byte strings: the same literals are in the spec.
INVALID = [b"caf\xe9 au lait", b"ok \xf0\x9f\x98 trunc ated", b"\xed\xa0\x80 surrogate xx",
           b"\xc0\xaf overlong \xff\xfe end"]

# Script functions, named in a case's options; the spec defines the same
# ones in Lua (string.upper, %S+ runs, substrings of 3 bytes), which read
# ASCII text as these do.
CALLABLES = {
    "split": lambda s: s.split(),
    "upper": lambda s: s.upper(),
    "chars3": lambda s: [s[i:i + 3] for i in range(len(s) - 2)],
}

CASES = [
    # name, corpus, class, options (Luma's spelling: ngram_range as a list)
    ("count-default", "multilingual", "count", {}),
    ("count-nolower", "multilingual", "count", {"lowercase": False}),
    ("count-bigrams-stop", "multilingual", "count",
     {"ngram_range": [1, 3], "stop_words": "english"}),
    ("count-char", "multilingual", "count", {"analyzer": "char", "ngram_range": [1, 3]}),
    ("count-char-wb", "multilingual", "count", {"analyzer": "char_wb", "ngram_range": [2, 5]}),
    ("count-binary-list-stop", "multilingual", "count",
     {"binary": True, "stop_words": ["the", "fox", "και"]}),
    ("tfidf-default", "multilingual", "tfidf", {}),
    ("tfidf-char-wb-l1", "multilingual", "tfidf",
     {"analyzer": "char_wb", "ngram_range": [1, 3], "norm": "l1", "sublinear_tf": True}),
    ("dpkg-count", "dpkg", "count", {}),
    ("dpkg-count-pruned", "dpkg", "count", {"min_df": 2, "max_df": 0.5}),
    ("dpkg-count-max-features", "dpkg", "count", {"max_features": 103, "ngram_range": [1, 2]}),
    ("dpkg-tfidf", "dpkg", "tfidf",
     {"ngram_range": [1, 2], "stop_words": "english", "sublinear_tf": True, "min_df": 2}),
    ("dpkg-tfidf-raw", "dpkg", "tfidf",
     {"norm": "none", "smooth_idf": False, "max_df": 20}),
    ("tfidf-noidf", "multilingual", "tfidf", {"use_idf": False, "norm": "l1", "binary": True}),
    ("hash-default", "multilingual", "hash", {"n_features": 1024}),
    ("hash-char-wb", "multilingual", "hash",
     {"n_features": 97, "analyzer": "char_wb", "ngram_range": [2, 3], "alternate_sign": False,
      "norm": "none"}),
    ("hash-binary-l1", "multilingual", "hash", {"n_features": 4096, "binary": True, "norm": "l1"}),
    ("invalid-replace-char", "invalid", "count",
     {"decode_error": "replace", "analyzer": "char", "ngram_range": [1, 2]}),
    ("invalid-ignore", "invalid", "count", {"decode_error": "ignore"}),
    ("callable-tokenizer", "dpkg_ascii", "count",
     {"tokenizer": "split", "ngram_range": [1, 2], "stop_words": "english"}),
    ("callable-preprocessor-tokenizer", "dpkg_ascii", "count",
     {"preprocessor": "upper", "tokenizer": "split", "min_df": 2}),
    ("callable-preprocessor", "dpkg_ascii", "tfidf", {"preprocessor": "upper"}),
    ("callable-preprocessor-char", "dpkg_ascii", "count",
     {"preprocessor": "upper", "analyzer": "char_wb", "ngram_range": [2, 3]}),
    ("callable-analyzer", "dpkg_ascii", "count",
     {"analyzer": "chars3", "lowercase": True, "stop_words": "english", "ngram_range": [2, 2]}),
    ("callable-analyzer-hash", "dpkg_ascii", "hash", {"analyzer": "chars3", "n_features": 256}),
]


def sk_options(opts):
    o = dict(opts)
    if "ngram_range" in o:
        o["ngram_range"] = tuple(o["ngram_range"])
    if o.get("norm") == "none":
        o["norm"] = None
    for key in ("tokenizer", "preprocessor", "analyzer"):
        if o.get(key) in CALLABLES:
            o[key] = CALLABLES[o[key]]
    return o


def lua_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if v != int(v) or "e" in repr(v) else "%.1f" % v
    if isinstance(v, str):
        return lua_string(v)
    if isinstance(v, list):
        return "{ " + ", ".join(lua_value(x) for x in v) + " }"
    raise TypeError(v)


def lua_string(s):
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append("\\%03d" % b)
    return '"' + "".join(out) + '"'


def main():
    corpora = {"multilingual": multilingual(), "dpkg": dpkg(), "invalid": INVALID}
    corpora["dpkg_ascii"] = [d for d in corpora["dpkg"] if d.isascii()]
    lines = ["-- Generated by tests/text/reference/vectorizers.py (scikit-learn %s): do not edit."
             % sklearn.__version__,
             "-- SPDX-License-Identifier: MIT",
             "return {",
             "  n_docs = { multilingual = %d, dpkg = %d, invalid = %d, dpkg_ascii = %d }," %
             tuple(len(corpora[k]) for k in ("multilingual", "dpkg", "invalid", "dpkg_ascii")),
             "  cases = {"]
    for name, corpus, kind, opts in CASES:
        docs = corpora[corpus]
        o = sk_options(opts)
        if kind == "count":
            est = CountVectorizer(dtype="float64", **o)
        elif kind == "tfidf":
            est = TfidfVectorizer(**o)
        else:
            est = HashingVectorizer(**o)
        X = est.fit_transform(docs).tocsr()
        X.sort_indices()
        if kind != "hash":
            terms = list(est.get_feature_names_out())
            if "max_features" in opts:
                # the cut must not fall inside a tie of term frequencies
                # (scikit-learn breaks ties by an unstable sort)
                full = CountVectorizer(**{k: v for k, v in o.items() if k != "max_features"})
                C = full.fit_transform(docs)
                tfs = sorted(C.sum(axis=0).A1, reverse=True)
                assert tfs[opts["max_features"] - 1] != tfs[opts["max_features"]], name
        lines.append("    { name = %s, corpus = %s, kind = %s," %
                     (lua_string(name), lua_string(corpus), lua_string(kind)))
        lines.append("      options = { %s }," % ", ".join(
            "%s = %s" % (k, lua_value(v)) for k, v in sorted(opts.items())))
        lines.append("      rows = %d, cols = %d, nnz = %d," % (X.shape[0], X.shape[1], X.nnz))
        if kind != "hash":
            lines.append("      terms = { %s }," % ", ".join(lua_string(t) for t in terms))
        entries = []
        for i in range(X.shape[0]):
            for k in range(X.indptr[i], X.indptr[i + 1]):
                entries.append("%d, %d, %s" % (i + 1, X.indices[k] + 1, repr(float(X.data[k]))))
        lines.append("      entries = { %s }," % ", ".join(entries))
        lines.append("    },")
    lines.append("  },")
    lines.append("}")
    with open(os.path.join(HERE, "vectorizers_expected.lua"), "w") as f:
        f.write("\n".join(lines) + "\n")


main()
