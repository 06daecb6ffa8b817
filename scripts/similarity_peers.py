"""Compares arbiter's similarity ranking with copydetect's on one labelled set.

Usage: similarity_peers.py DIR ARBITER_JSON
DIR holds one source per student; a file's group is its name before the first dot, so
greedy.renamed.c is a disguised copy of greedy.orig.c and mobility.c stands alone. Prints
both rankings and their agreement, and exits 1 when an assertion fails (see ASSERTIONS).
"""
import itertools
import json
import os
import sys

from copydetect import CodeFingerprint, compare_files

# copydetect's own defaults: noise threshold 25 tokens (k), guarantee threshold 30.
K, WINDOW = 25, 30 - 25 + 1
# The assertions: both tools rank every disguised copy above every unrelated pair, and their
# rankings of all pairs agree (Kendall's tau-b) at least this much.
MIN_TAU = 0.5


def group(name):
    return name.split(".")[0]


def copydetect_scores(d, files):
    prints = {f: CodeFingerprint(os.path.join(d, f), K, WINDOW) for f in files}
    out = {}
    for a, b in itertools.combinations(files, 2):
        _, (sa, sb), _ = compare_files(prints[a], prints[b])
        out[(a, b)] = (sa + sb) / 2
    return out


def arbiter_scores(path, files):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    found = {}
    for p in report["pairs"]:
        found[(p["a"]["owner"], p["b"]["owner"])] = p["similarity"]
        found[(p["b"]["owner"], p["a"]["owner"])] = p["similarity"]
    return {pair: found.get(pair, 0.0) for pair in itertools.combinations(files, 2)}


def ranks(values):
    """Average ranks (1 = highest), ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for t in range(i, j + 1):
            out[order[t]] = (i + j) / 2 + 1
        i = j + 1
    return out


def kendall_tau_b(x, y):
    concordant = discordant = tx = ty = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = x[i] - x[j], y[i] - y[j]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            tx += 1
        elif dy == 0:
            ty += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    denom = ((concordant + discordant + tx) * (concordant + discordant + ty)) ** 0.5
    return (concordant - discordant) / denom if denom else 0.0


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else 0.0


def separation(scores, copies):
    low = min(s for p, s in scores.items() if p in copies)
    high = max(s for p, s in scores.items() if p not in copies)
    return low, high


def main():
    d, report = sys.argv[1], sys.argv[2]
    files = sorted(f for f in os.listdir(d) if not f.startswith("."))
    ours = arbiter_scores(report, files)
    theirs = copydetect_scores(d, files)
    pairs = sorted(ours, key=lambda p: (-ours[p], -theirs[p], p))
    copies = {p for p in pairs if group(p[0]) == group(p[1])}
    rank_theirs = ranks([theirs[p] for p in pairs])
    print(f"\n{d}: {len(pairs)} pairs, {len(copies)} of them disguised copies")
    print(f"{'#':>3} {'pair':<44} {'label':<9} {'arbiter':>8} {'copydetect':>10} {'cd rank':>8}")
    for n, p in enumerate(pairs, 1):
        label = "copy" if p in copies else "unrelated"
        print(f"{n:>3} {p[0] + ' ~ ' + p[1]:<44} {label:<9} {ours[p]:>8.3f} {theirs[p]:>10.3f} {rank_theirs[n - 1]:>8.1f}")
    x, y = [ours[p] for p in pairs], [theirs[p] for p in pairs]
    k = len(copies)
    top_ours = set(pairs[:k])
    top_theirs = set(sorted(pairs, key=lambda p: -theirs[p])[:k])
    tau, rho = kendall_tau_b(x, y), spearman(x, y)
    print(f"agreement: Kendall tau-b {tau:.3f}, Spearman rho {rho:.3f}, "
          f"top-{k} overlap {len(top_ours & top_theirs)}/{k}")
    failed = []
    for name, scores in (("arbiter", ours), ("copydetect", theirs)):
        low, high = separation(scores, copies)
        print(f"{name}: weakest copy {low:.3f}, strongest unrelated pair {high:.3f}")
        if low <= high:
            failed.append(f"{name} ranks an unrelated pair ({high:.3f}) at or above a copy ({low:.3f})")
    if tau < MIN_TAU:
        failed.append(f"the rankings agree too little: tau {tau:.3f} < {MIN_TAU}")
    for f in failed:
        print(f"FAILED: {f}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
