# The peer side of the tfidf-20mb row, and the maker of its data:
#   python3 tfidf.py data DIR   writes DIR/tfidf-20mb.txt (if absent)
#   python3 tfidf.py run DIR    times TfidfVectorizer().fit_transform
# The data: every regular file under /usr/share/doc that is not compressed
# and reads as UTF-8, in sorted path order, concatenated and repeated until
# 20 MiB; each 25 lines make a document; documents are separated by
# "\x1e\n" in the file.  Prints "time <seconds>"; the shape and the stored
# entries go to stderr (they must equal the Luma side's).
# SPDX-License-Identifier: MIT
import os
import sys
import time

SIZE = 20 * 1024 * 1024


def make(path):
    files = []
    for root, dirs, names in os.walk("/usr/share/doc"):
        dirs.sort()
        for name in sorted(names):
            p = os.path.join(root, name)
            if os.path.islink(p) or not os.path.isfile(p) or name.endswith((".gz", ".xz", ".bz2")):
                continue
            try:
                with open(p, encoding="utf-8") as f:
                    files.append(f.read())
            except (UnicodeDecodeError, OSError):
                pass
    lines = "".join(files).splitlines()
    docs, size, k = [], 0, 0
    while size < SIZE:
        doc = "\n".join(lines[k:k + 25])
        k = k + 25 if k + 25 < len(lines) else 0
        docs.append(doc)
        size += len(doc.encode("utf-8")) + 2
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8", newline="") as f:
        f.write("\x1e\n".join(docs))
    os.replace(path + ".tmp", path)


def main():
    mode, d = sys.argv[1], sys.argv[2]
    path = os.path.join(d, "tfidf-20mb.txt")
    if not os.path.exists(path):
        make(path)
    if mode == "data":
        return
    from sklearn.feature_extraction.text import TfidfVectorizer
    with open(path, encoding="utf-8", newline="") as f:
        docs = f.read().split("\x1e\n")
    t0 = time.perf_counter()
    X = TfidfVectorizer().fit_transform(docs)
    elapsed = time.perf_counter() - t0
    sys.stderr.write("%d x %d, %d stored\n" % (X.shape[0], X.shape[1], X.nnz))
    print("time %.6f" % elapsed)


main()
