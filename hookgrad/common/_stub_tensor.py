"""``mindspore.common._stub_tensor``: MindSpore 2.10 keeps ``StubTensor`` only as a name that
code and tests test against (``isinstance(x, (Tensor, StubTensor))``). Its ops return
``Tensor`` itself, so nothing is a ``StubTensor``; hookgrad's is the same empty class."""

__all__ = ['StubTensor']


class StubTensor:
    """The name of MindSpore's former lazy op result; no value is an instance of it."""
