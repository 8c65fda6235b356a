#!/usr/bin/env python3
# A synthetic series of nights for tests/integration/trend.sh: copies of one
# results file, one per night, each sample's figures times lognormal noise
# (fixed seed), the splice runs times (1 + step) from night AT on, and the
# kernel's release and fingerprint changed that night (vmsplice became a
# copy), as the patched kernel of the mission would show.
#   trend_series.py BASE.json OUTDIR NIGHTS NOISE AT STEP [SEED] [START_DAY]
import copy, json, math, random, sys

base_path, out, nights, noise, at, step = sys.argv[1:7]
seed = int(sys.argv[7]) if len(sys.argv) > 7 else 1
start = int(sys.argv[8]) if len(sys.argv) > 8 else 1
nights, noise, at, step = int(nights), float(noise), int(at), float(step)
rnd = random.Random(seed)
base = json.load(open(base_path))
FIGS = ("gbps", "gbps_per_core", "dut_gbps")
for i in range(1, nights + 1):
    d = copy.deepcopy(base)
    day = start + i - 1
    d["meta"]["date"] = "2026-%02d-%02dT03:00:00Z" % (1 + (day - 1) // 28, 1 + (day - 1) % 28)
    d["invocation"] = "night%04d-seed%d" % (day, seed)
    after = i >= at
    if after:
        d["meta"]["kernel"]["release"] = "6.20.0-patched"
        fp = d.get("fingerprint") or {}
        fp["label"] = fp.get("label", "").replace("vmsplice=zero-copy", "vmsplice=copy")
        d["fingerprint"] = fp
    f = math.exp(rnd.gauss(0, noise))  # the night's offset: every run moves
    for run in d["runs"]:
        g = f * ((1 + step) if after and run["key"].get("proxy") == "splice" else 1)
        for s in run["samples"]:
            for k in FIGS:
                if isinstance(s.get(k), (int, float)):
                    s[k] *= g * math.exp(rnd.gauss(0, noise / 4))
    json.dump(d, open("%s/night-%03d.json" % (out, day), "w"), indent=1)
