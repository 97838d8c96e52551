#!/usr/bin/env python3
"""Count the public API of the `ordo` facade: every item a library user can name through
`ordo` (modules, types, traits, functions, constants), and the methods, fields and variants
those items expose, following each re-export into the crate that defines the item.

    python3 scripts/api-count.py            # build the rustdoc JSON (nightly), then count
    python3 scripts/api-count.py --no-build # count the JSON already in target/doc
    python3 scripts/api-count.py --list     # also print every counted path

It runs `cargo +nightly doc` with rustdoc's JSON output (an unstable option) for the facade
and the workspace crates it re-exports, private items left out, and walks target/doc/*.json.
An item re-exported under two names counts once; trait implementations count as nothing
(their methods belong to the trait), inherent methods and associated constants as methods.
"""
import json
import os
import subprocess
import sys

CRATES = ["ordo", "ordo-core", "ordo-render", "ordo-solve", "ordo-reference", "ordo-bitboard", "ordo-adjudicate"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "target", "doc")


def build():
    env = dict(os.environ, RUSTDOCFLAGS="-Z unstable-options --output-format json")
    cmd = ["cargo", "+nightly", "doc", "--no-deps", "--quiet"]
    for c in CRATES:
        cmd += ["-p", c]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)


class Counter:
    def __init__(self):
        self.docs = {}
        self.seen = set()
        self.counts = {"items": 0, "methods": 0, "fields": 0, "variants": 0}
        self.paths = []

    def doc(self, crate):
        if crate not in self.docs:
            path = os.path.join(DOC, crate + ".json")
            self.docs[crate] = json.load(open(path)) if os.path.exists(path) else None
        return self.docs[crate]

    def resolve(self, crate, path):
        """The id of `path` (names after the crate's) in `crate`'s JSON, walking its modules
        and following its re-exports; None if the crate is not one of ours."""
        d = self.doc(crate)
        if d is None:
            return None, None
        item = d["index"][str(d["root"])]
        for name in path:
            found = None
            for i in item["inner"]["module"]["items"]:
                it = d["index"].get(str(i))
                if it is None:
                    continue
                if "use" in it["inner"] and it["inner"]["use"]["name"] == name:
                    c, target = self.follow(crate, it["inner"]["use"])
                    if target is not None:
                        crate, d, found = c, self.doc(c), target
                        break
                elif it.get("name") == name:
                    found = str(i)
                    break
            if found is None:
                return None, None
            item = d["index"][found]
        return crate, str(item["id"])

    def follow(self, crate, use):
        """Where a `use` item points: (crate, id) in that crate's JSON."""
        d = self.doc(crate)
        target = use["id"]
        if target is not None and str(target) in d["index"]:
            return crate, str(target)
        if target is None or str(target) not in d["paths"]:
            return None, None
        parts = d["paths"][str(target)]["path"]
        other = parts[0]
        if other.replace("_", "-") not in CRATES:
            return None, None
        return self.canonical(other, parts)

    def canonical(self, crate, parts):
        """The id of the item whose defining path is `parts` in `crate`'s JSON."""
        d = self.doc(crate)
        for id_, p in d["paths"].items():
            if p["crate_id"] == 0 and p["path"] == parts and id_ in d["index"]:
                return crate, id_
        return self.resolve(crate, parts[1:])

    def count(self, crate, id_, path):
        key = (crate, id_)
        if key in self.seen:
            return
        self.seen.add(key)
        d = self.doc(crate)
        item = d["index"][id_]
        kind, inner = next(iter(item["inner"].items()))
        if kind == "use":
            c, target = self.follow(crate, inner)
            if target is not None:
                self.count(c, target, path)
            elif not inner["is_glob"]:
                self.add("items", path)  # a name from outside the workspace
            return
        if kind == "module":
            if path:
                self.add("items", path)
            for i in inner["items"]:
                it = d["index"].get(str(i))
                if it is not None:
                    name = it.get("name") or it["inner"].get("use", {}).get("name", "?")
                    self.count(crate, str(i), path + [name])
            return
        self.add("items", path)
        if kind == "struct":
            k = inner["kind"]
            fields = k.get("plain", {}).get("fields", []) if isinstance(k, dict) else []
            if isinstance(k, dict) and "tuple" in k:
                fields = [f for f in k["tuple"] if f is not None]
            for f in fields:
                self.add("fields", path + [d["index"][str(f)].get("name") or "?"])
            self.impls(crate, inner["impls"], path)
        elif kind == "enum":
            for v in inner["variants"]:
                vi = d["index"][str(v)]
                self.add("variants", path + [vi["name"]])
                vk = vi["inner"]["variant"]["kind"]
                if isinstance(vk, dict) and "struct" in vk:
                    for f in vk["struct"]["fields"]:
                        self.add("fields", path + [vi["name"], d["index"][str(f)]["name"]])
            self.impls(crate, inner["impls"], path)
        elif kind == "union":
            self.impls(crate, inner["impls"], path)
        elif kind == "trait":
            for i in inner["items"]:
                self.add("methods", path + [d["index"][str(i)]["name"]])

    def impls(self, crate, impls, path):
        d = self.doc(crate)
        for i in impls:
            imp = d["index"][str(i)]["inner"]["impl"]
            if imp["trait"] is not None or imp.get("blanket_impl") is not None:
                continue
            for m in imp["items"]:
                it = d["index"][str(m)]
                if it.get("visibility") == "public":
                    self.add("methods", path + [it["name"]])

    def add(self, what, path):
        self.counts[what] += 1
        self.paths.append((what, "::".join(["ordo"] + path)))


def main():
    if "--no-build" not in sys.argv:
        build()
    c = Counter()
    d = c.doc("ordo")
    c.count("ordo", str(d["root"]), [])
    if "--list" in sys.argv:
        for what, p in sorted(c.paths, key=lambda x: x[1]):
            print(f"{what:8} {p}")
    total = sum(c.counts.values())
    parts = ", ".join(f"{n} {k}" for k, n in c.counts.items())
    print(f"ordo public API: {total} ({parts})")


main()
