#!/usr/bin/env python3
"""Prints, one target per line, `NAME<TAB>SOURCE-DIR<TAB>FLAGS...` for Package.swift's
kernel level targets (Microkernels*, not the tests), with the unsafe flags the manifest
gives their Swift compiles on Linux in a release build, or in a debug build with the
argument `debug` (the engine's optimization in debug builds is a setting of its own,
conditioned on the debug configuration), read from `swift package dump-package` (JSON on
standard input). Flags are tab-separated too.

    swift package dump-package | python3 scripts/level-target-flags.py [release|debug]
"""
import json
import sys

configuration = sys.argv[1] if len(sys.argv) > 1 else "release"
if configuration not in ("release", "debug"):
    sys.exit(f"level-target-flags: unknown configuration '{configuration}' (release or debug)")
package = json.load(sys.stdin)
for target in package["targets"]:
    name = target["name"]
    if not name.startswith("Microkernels") or target.get("type") == "test":
        continue
    flags = []
    for setting in target.get("settings", []):
        if setting.get("tool") != "swift" or "unsafeFlags" not in setting["kind"]:
            continue
        condition = setting.get("condition") or {}
        platforms = condition.get("platformNames") or []
        if platforms and "linux" not in platforms:
            continue
        if condition.get("config") not in (None, configuration):
            continue
        flags += setting["kind"]["unsafeFlags"]["_0"]
    path = target.get("path") or f"Sources/{name}"
    print("\t".join([name, path] + flags))
