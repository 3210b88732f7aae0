"""``hookgrad.explain``: attribution, where a network looks (Grad-CAM and heatmap overlays)."""
from .gradcam import GradCAM, overlay

__all__ = ['GradCAM', 'overlay']
