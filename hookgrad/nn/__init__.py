"""``hookgrad.nn``: parameters (cells and layers build on them)."""
from .parameter import Parameter
