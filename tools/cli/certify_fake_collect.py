#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# certify_fake_collect.py - a stand-in for 'fairdie collect' in the tests
# of 'fairdie certify' (FAIRDIE_CERTIFY_COLLECT): writes captures in
# collect's formats (raw: little-endian u64 words; conditioned: bytes of
# fair bits; final --sides K: one byte an outcome for K <= 256; final
# --shuffle M: decks of M bytes) and a sidecar FILE.json, from a seeded
# generator, so that the report can be tested without the device.
#
# FAKE_COLLECT_DEFECT plants a defect:
#   coin51   final outcomes of a coin with P(1) = 0.51 fed to the exact
#            sampler (the SIM coin with NONE at p = 0.51)
#   modulo   final outcomes as a byte reduced modulo the sides, without
#            rejection (the modulo_bias knob)
#   stuck    the source is stuck: raw words all the same, and every other
#            stage fails with EIO as the device does
#   noroot   the raw stage is refused, as for a user without CAP_SYS_ADMIN
# FAKE_COLLECT_SEED seeds the generator (default 1).
import json
import os
import random
import sys

args = sys.argv[1:]
opt = {}
i = 0
while i < len(args):
    a = args[i]
    if a.startswith("--") and "=" in a:
        k, v = a[2:].split("=", 1)
        opt[k] = v
    elif a in ("-o", "--stage", "--count", "--sides", "--shuffle",
               "--source", "--extractor", "--sim", "--device"):
        opt[a.lstrip("-")] = args[i + 1]
        i += 1
    i += 1
out = opt["o"]
stage = opt["stage"]
count = int(opt.get("count", "1000"))
defect = os.environ.get("FAKE_COLLECT_DEFECT", "")
seed = int(os.environ.get("FAKE_COLLECT_SEED", "1"))
rng = random.Random("%d %s %s %s" % (seed, stage, opt.get("sides"),
                                      opt.get("shuffle")))

if defect == "noroot" and stage == "raw":
    sys.stderr.write("fairdie: collect: raw words need root (CAP_SYS_ADMIN): "
                     "Operation not permitted\n")
    sys.exit(1)
if defect == "stuck" and stage != "raw":
    sys.stderr.write("fairdie: collect: read /dev/fairdie: "
                     "Input/output error\n")
    sys.exit(1)


def biased_coin_uniform(k):
    # The exact sampler (Lumbroso's fast dice roller) fed by a coin whose
    # bits are 1 with probability 0.51.
    v, c = 1, 0
    while True:
        v, c = 2 * v, 2 * c + (rng.random() < 0.51)
        if v >= k:
            if c < k:
                return c
            v, c = v - k, c - k


data = bytearray()
width = 1
if stage == "raw":
    width = 8
    if defect == "stuck":
        data = (0x9e3779b97f4a7c15).to_bytes(8, "little") * count
    else:
        data = rng.randbytes(8 * count)
elif stage == "conditioned":
    data = rng.randbytes(count)
elif "shuffle" in opt:
    m = int(opt["shuffle"])
    deck = list(range(m))
    for _ in range(count):
        rng.shuffle(deck)
        data += bytes(deck)
else:
    k = int(opt["sides"])
    if defect == "coin51":
        data = bytes(biased_coin_uniform(k) for _ in range(count))
    elif defect == "modulo":
        data = bytes(b % k for b in rng.randbytes(count))
    else:
        data = bytes(rng.randrange(k) for _ in range(count))

with open(out, "wb") as f:
    f.write(data)
side = {
    "schema": "fairdie.collect/1",
    "stage": stage,
    "count": count,
    "bit_width": 8 * width,
    "source": opt.get("source", "fake"),
    "extractor": opt.get("extractor"),
    "fake": True,
    "defect": defect or None,
}
with open(out + ".json", "w") as f:
    json.dump(side, f)
