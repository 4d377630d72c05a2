"""Writes the tiny PNG test images in this directory and the RGB8 pixels each must decode to.

Run from anywhere with the fixture venv:
    /path/to/Fixtures/generate/.venv/bin/python Tests/VisionTests/Resources/make_pngs.py

PNGs are written by the small encoder below (zlib + the PNG chunk layout) so that every
color type, bit depth and Adam7 interlacing can be produced exactly; each is cross-checked
by decoding it with Pillow. For every `NAME.png` there is `NAME.rgb`: the expected
width*height*3 bytes, rows top to bottom, under the decoder's documented rules:
gray and palette expand to RGB, alpha is dropped, 1/2/4-bit gray scale to 0..255
(v * 255 / (2^bits - 1)), 16-bit samples become round(v / 257) (libpng's simplified API
scales, it does not truncate), and there is no gamma chunk so no gamma conversion.
Interlaced 16-bit images with alpha are opaque: the decoder un-premultiplies libpng's
linear output there, which is exact only for opaque pixels.
"""
import os
import struct
import zlib

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 9, 7  # odd sizes exercise partial Adam7 passes and sub-byte row padding
rng = np.random.default_rng(20261121)


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, bits):
    """One scanline's bytes (without filter byte) from integer samples."""
    if bits == 16:
        return b"".join(struct.pack(">H", int(s)) for s in samples)
    if bits == 8:
        return bytes(int(s) for s in samples)
    out, acc, n = bytearray(), 0, 0
    for s in samples:
        acc = (acc << bits) | int(s)
        n += bits
        if n == 8:
            out.append(acc)
            acc, n = 0, 0
    if n:
        out.append(acc << (8 - n))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def encode(samples, bits, color_type, interlace, palette=None, trns=None):
    """samples: H x W x C integer array."""
    h, w, _ = samples.shape
    raw = bytearray()
    if interlace:
        for x0, y0, dx, dy in ADAM7:
            sub = samples[y0::dy, x0::dx]
            if sub.shape[0] == 0 or sub.shape[1] == 0:
                continue
            for row in sub:
                raw += b"\x00" + pack_row(row.reshape(-1), bits)
    else:
        for row in samples:
            raw += b"\x00" + pack_row(row.reshape(-1), bits)
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, color_type, 0, 0, 1 if interlace else 0))
    if palette is not None:
        png += chunk(b"PLTE", bytes(np.asarray(palette, dtype=np.uint8).reshape(-1)))
    if trns is not None:
        png += chunk(b"tRNS", bytes(trns))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    return png


def to8(v, bits):
    v = np.asarray(v, dtype=np.int64)
    if bits == 16:
        return ((v * 255 + 32767) // 65535).astype(np.uint8)  # round(v / 257)
    return (v * 255 // ((1 << bits) - 1)).astype(np.uint8)


def write(name, png, expected_rgb):
    with open(os.path.join(HERE, name + ".png"), "wb") as f:
        f.write(png)
    with open(os.path.join(HERE, name + ".rgb"), "wb") as f:
        f.write(expected_rgb.astype(np.uint8).tobytes())
    # Cross-check the file with an independent decoder (Pillow) where it keeps the values.
    img = Image.open(os.path.join(HERE, name + ".png"))
    img.load()
    assert img.size == (W, H), name


cases = []
for interlace in (False, True):
    suffix = "_i" if interlace else ""
    for bits in (1, 2, 4, 8, 16):
        g = rng.integers(0, 1 << bits, size=(H, W, 1))
        rgb = np.repeat(to8(g, bits), 3, axis=2)
        write(f"gray{bits}{suffix}", encode(g, bits, 0, interlace), rgb)
    for bits in (8, 16):
        ga = rng.integers(0, 1 << bits, size=(H, W, 2))
        if bits == 16 and interlace:
            # Interlaced 16-bit goes through libpng's premultiplied linear output; keep
            # these opaque so the expected values are exact (see PNGCodec).
            ga[..., 1] = 65535
        write(f"graya{bits}{suffix}", encode(ga, bits, 4, interlace), np.repeat(to8(ga[..., :1], bits), 3, axis=2))
        c = rng.integers(0, 1 << bits, size=(H, W, 3))
        write(f"rgb{bits}{suffix}", encode(c, bits, 2, interlace), to8(c, bits))
        ca = rng.integers(0, 1 << bits, size=(H, W, 4))
        if bits == 16 and interlace:
            ca[..., 3] = 65535
        write(f"rgba{bits}{suffix}", encode(ca, bits, 6, interlace), to8(ca[..., :3], bits))
    for bits in (1, 2, 4, 8):
        n = 1 << bits
        pal = rng.integers(0, 256, size=(n, 3))
        idx = rng.integers(0, n, size=(H, W, 1))
        trns = list(rng.integers(0, 256, size=n)) if bits == 4 else None
        write(f"palette{bits}{suffix}", encode(idx, bits, 3, interlace, palette=pal, trns=trns), pal[idx[..., 0]])

# Pillow cross-check of values for the 8-bit RGB image (an independent decode).
img = np.asarray(Image.open(os.path.join(HERE, "rgb8.png")).convert("RGB"))
with open(os.path.join(HERE, "rgb8.rgb"), "rb") as f:
    assert np.array_equal(img.reshape(-1), np.frombuffer(f.read(), dtype=np.uint8)), "Pillow disagrees on rgb8"
img = np.asarray(Image.open(os.path.join(HERE, "palette4_i.png")).convert("RGB"))
with open(os.path.join(HERE, "palette4_i.rgb"), "rb") as f:
    assert np.array_equal(img.reshape(-1), np.frombuffer(f.read(), dtype=np.uint8)), "Pillow disagrees on palette4_i"
print("wrote", len([n for n in os.listdir(HERE) if n.endswith(".png")]), "PNGs")
