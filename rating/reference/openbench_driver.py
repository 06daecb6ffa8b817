# Prints OpenBench's own PentanomialSPRT and Elo for each line of cases.txt
# ("elo0 elo1 LL LD DD WL WD WW"), with OpenBench/stats.py (unmodified) on PYTHONPATH.
import sys
import stats

for line in open(sys.argv[1]):
    f = line.split()
    elo0, elo1 = float(f[0]), float(f[1])
    ll, ld, dd, wl, wd, ww = (int(x) for x in f[2:])
    r5 = [ll, ld, dd + wl, wd, ww]
    lo, elo, hi = stats.Elo(r5)
    print("%.12f elo=%.12f lower=%.12f upper=%.12f" % (stats.PentanomialSPRT(r5, elo0, elo1), elo, lo, hi))
