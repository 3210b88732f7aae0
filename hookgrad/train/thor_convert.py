"""MindSpore's THOR converters: ``ConvertModelUtils`` and ``ConvertNetUtils``.

THOR is MindSpore's second-order optimizer, with its own layers (``DenseThor``,
``Conv2dThor``...). hookgrad has neither: ``convert_to_thor_model`` gives back the Model
unchanged, as MindSpore does for any optimizer that is not THOR's, and
``convert_to_thor_net`` (which swaps a network's layers for THOR's) raises.
"""

__all__ = ['ConvertModelUtils', 'ConvertNetUtils']

_THOR_OPTIMIZERS = ('ThorAscend', 'ThorGpu')


class ConvertNetUtils:
    """Swap a network's Dense, Conv2d and Embedding layers for THOR's."""

    def convert_to_thor_net(self, net):
        """Raises NotImplementedError: hookgrad has no THOR layers."""
        raise NotImplementedError("ConvertNetUtils.convert_to_thor_net: hookgrad has no THOR "
                                  "layers (DenseThor, Conv2dThor, EmbeddingThor) to swap in")


class ConvertModelUtils:
    """Make a Model train with THOR."""

    @staticmethod
    def convert_to_thor_model(model, network, loss_fn=None, optimizer=None, metrics=None,
                              amp_level="O0", loss_scale_manager=None,
                              keep_batchnorm_fp32=False):
        """``model`` itself: MindSpore converts it only for a THOR optimizer, which hookgrad
        has none of.

        Raises:
            NotImplementedError: for an optimizer of THOR's classes.
        """
        if type(optimizer).__name__ in _THOR_OPTIMIZERS:
            raise NotImplementedError("ConvertModelUtils.convert_to_thor_model: hookgrad has no "
                                      "THOR model (ModelThor)")
        return model
