"""The transforms MindSpore 2.10 has at the top level besides grad, value_and_grad and vjp
(``hookgrad/__init__.py`` star-imports this module): ``jvp``, ``vmap``, ``jacfwd``, ``jacrev``
and ``get_grad``."""
from .forward_mode import jacfwd, jacrev, jvp
from .functional import get_grad
from .vmap import vmap

__all__ = ['jvp', 'vmap', 'jacfwd', 'jacrev', 'get_grad']
