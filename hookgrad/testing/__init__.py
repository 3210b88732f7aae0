"""Tools for testing ops and models built on hookgrad."""
from .gradcheck import check_grad, check_double_grad, numerical_vjp
