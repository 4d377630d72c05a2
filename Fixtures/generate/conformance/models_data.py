"""Real-photo inputs for the whole-model conformance cases.

Random weights on random noise give activations that say little; real photos
(scikit-image's bundled samples, no download) give the spatial structure the
networks were designed for.  Crops are seeded, resized with scikit-image
(deterministic) and scaled to [-1, 1], the MobileNet / BlazeFace convention.
"""
from __future__ import annotations

import numpy as np

PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "hubble_deep_field",
          "immunohistochemistry", "retina")

_cache = {}


def photo(name: str) -> np.ndarray:
    """RGB uint8 photo from skimage.data."""
    if name not in _cache:
        import skimage.data
        img = getattr(skimage.data, name)()
        _cache[name] = np.ascontiguousarray(img[..., :3])
    return _cache[name]


def to_unit_range(img_u8_like: np.ndarray) -> np.ndarray:
    """[0, 255] -> [-1, 1] as float32."""
    return (np.asarray(img_u8_like, np.float64) / 127.5 - 1.0).astype(np.float32)


def resize(img: np.ndarray, size: int) -> np.ndarray:
    """Square resize with anti-aliasing; returns [0, 255] float64."""
    from skimage.transform import resize as sk_resize
    out = sk_resize(img.astype(np.float64), (size, size), order=1, anti_aliasing=True,
                    preserve_range=True, mode="edge")
    return np.clip(out, 0.0, 255.0)


def crops(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """`count` random square crops (30-100 % of the short side) of random photos,
    resized to size x size, in [-1, 1]: shape (count, size, size, 3) float32."""
    out = np.empty((count, size, size, 3), np.float32)
    for i in range(count):
        img = photo(PHOTOS[int(rng.integers(len(PHOTOS)))])
        h, w = img.shape[:2]
        side = int(min(h, w) * rng.uniform(0.3, 1.0))
        y = int(rng.integers(0, h - side + 1))
        x = int(rng.integers(0, w - side + 1))
        crop = img[y:y + side, x:x + side]
        if rng.random() < 0.5:
            crop = crop[:, ::-1]
        out[i] = to_unit_range(resize(crop, size))
    return out


def astronaut(size: int) -> np.ndarray:
    """The whole astronaut photo (a face at a typical selfie scale), (1, size, size, 3) in [-1, 1]."""
    return to_unit_range(resize(photo("astronaut"), size))[None]
