"""Random composition of image transforms (MindSpore's ``vision.UniformAugment`` and
``vision.RandomSelectSubpolicy``). Draws come from ``row_generator()``, so ``ms.set_seed``
makes them repeat."""
from ..engine import row_generator
from ..transforms import _checks
from ..transforms.transforms import TensorOperation

__all__ = ['UniformAugment', 'RandomSelectSubpolicy']


def _check_op(op, name):
    if not callable(op):
        raise TypeError(f"{name} is neither a transforms op (TensorOperation) nor a callable "
                        f"pyfunc.")
    if isinstance(op, type):
        raise ValueError(f"op_list[{name}] should be a dataset processing operation instance, "
                         f"but got: {op}. It may be missing parentheses for instantiation.")


class UniformAugment(TensorOperation):
    """Pick ``num_ops`` of ``transforms`` at random (without repeats, kept in list order) and
    apply each of them with probability 1/2, one after another.

    Args:
        transforms: a list of transforms whose output type is their input type.
        num_ops: how many to pick, 1 to ``len(transforms)``. Default 2.
    """

    def __init__(self, transforms, num_ops=2):
        _checks.type_check(num_ops, (int,), 'num_ops')
        if num_ops <= 0:
            raise ValueError("Input num_ops must be greater than 0.")
        if num_ops > len(transforms):
            raise ValueError("num_ops is greater than transforms list size.")
        _checks.type_check(transforms, (list, tuple), 'transforms list')
        if not transforms:
            raise ValueError("transforms list can not be empty.")
        for i, op in enumerate(transforms):
            _check_op(op, f'transforms[{i}]')
        self.transforms, self.num_ops = list(transforms), num_ops

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("The op is OneToOne, can only accept one tensor as input.")
        img = inputs[0]
        rng = row_generator()
        for i in sorted(rng.choice(len(self.transforms), self.num_ops, replace=False)):
            if rng.random() < 0.5:
                img = self.transforms[i](img)
        return img


class RandomSelectSubpolicy(TensorOperation):
    """Pick one sub-policy of ``policy`` at random and run its ``(transform, prob)`` steps in
    order, each with its probability.

    Args:
        policy: a non-empty list of non-empty lists of ``(transform, prob)`` tuples, prob in
            [0, 1].
    """

    def __init__(self, policy):
        _checks.type_check(policy, (list,), 'policy')
        if not policy:
            raise ValueError("policy can not be empty.")
        for s, sub in enumerate(policy):
            _checks.type_check(sub, (list,), f'policy[{[s]}]')
            if not sub:
                raise ValueError(f"policy[{s}] can not be empty.")
            for o, step in enumerate(sub):
                if not (isinstance(step, tuple) and len(step) == 2):
                    raise ValueError(f"Value policy[{s}][{o}] needs to be a 2-tuple.")
                _check_op(step[0], f'op of (op, prob) in policy[{s}][{o}]')
                _checks.in_range(step[1], 0, 1, f'prob of (op, prob) policy[{s}][{o}]')
        self.policy = [list(sub) for sub in policy]

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("The op is OneToOne, can only accept one tensor as input.")
        img = inputs[0]
        rng = row_generator()
        for op, prob in self.policy[int(rng.integers(len(self.policy)))]:
            if rng.random() < prob:
                img = op(img)
        return img
