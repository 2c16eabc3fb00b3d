"""
Illumination correction with the Gaussian pyramid
=================================================

A camera lens darkens the corners of an image (cos^4 vignetting, thesis 5.2). The
Gaussian pyramid's coarsest low-pass image G'_0 captures that slow illumination;
:func:`sfmlearn.imaging.correct_illumination` removes it, f' = f - G'_0 + mean(f)
(thesis 5.1). How the image is extended at its border before each filtering decides how
much of the darkening survives there (replicate the edge, extrapolate linearly, or fit a
least-squares quadratic over the nearest 5 x 5 block); the script prints the border error
of each mode, the quantity of thesis Fig. 5.2.
"""

import matplotlib.pyplot as plt
import numpy as np

from sfmlearn.experiments.vignetting import border_error, vignetting_image
from sfmlearn.imaging import correct_illumination

image = vignetting_image(width=320, height=256)
corrected = {mode: correct_illumination(image, levels=5, boundary=mode)
             for mode in ("replicate", "linear", "quadratic")}

# %%
fig, axes = plt.subplots(1, 4, figsize=(12, 2.9))
for axis, (title, picture) in zip(axes, [("input (vignetted)", image), *corrected.items()]):
    axis.imshow(picture, cmap="gray", vmin=image.min(), vmax=image.max())
    axis.set(title=title, xticks=[], yticks=[])
plt.show()

# %%
# The middle row: the input falls off towards the sides; the corrections are flat except
# within a few pixels of the border, where the boundary mode matters.
fig, axis = plt.subplots(figsize=(7, 3))
row = image.shape[0] // 2
axis.plot(image[row], color="0.6", label="input")
for mode, picture in corrected.items():
    axis.plot(picture[row], label=mode)
    left, right = border_error(picture, border=32)
    print(f"{mode:9s}: intensity change within 32 px of the border, left {left:.2f}, right {right:.2f}")
axis.set(xlabel="column", ylabel="intensity", title="Middle row")
axis.legend(fontsize=8)
plt.show()
