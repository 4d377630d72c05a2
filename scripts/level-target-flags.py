#!/usr/bin/env python3
"""Prints, one target per line, `NAME<TAB>SOURCE-DIR<TAB>FLAGS...` for Package.swift's
kernel level targets (Microkernels*, not the tests), with the unsafe flags the manifest
gives their Swift compiles in a release build on Linux, read from
`swift package dump-package` (JSON on standard input). Flags are tab-separated too.
"""
import json
import sys

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
        if condition.get("config") not in (None, "release"):
            continue
        flags += setting["kind"]["unsafeFlags"]["_0"]
    path = target.get("path") or f"Sources/{name}"
    print("\t".join([name, path] + flags))
