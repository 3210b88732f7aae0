"""What ``debug.check`` finds: ``CheckFinding`` (one trap) and ``CheckReport`` (all of them)."""
import dataclasses

from .tables import TextTable

__all__ = ['CheckFinding', 'CheckReport', 'KINDS']

# The kinds of finding, in the order a report lists them, with what each means.
KINDS = {
    'nonfinite': 'the loss or a gradient holds NaN or Inf',
    'predict_mode': 'a cell whose behaviour depends on the train/predict mode ran in predict '
                    'mode while being differentiated',
    'input_scale': 'a floating-point input far from zero mean and unit spread',
    'no_gradient': 'a trainable parameter that no gradient reaches',
    'zero_gradient': 'a trainable parameter whose gradient is all zeros',
    'dead': 'a ReLU-family layer whose outputs are almost all zero',
    'saturated': 'a sigmoid or tanh layer whose outputs are almost all at their bounds',
    'vanishing': "an earlier layer's gradient norm far below the last layer's",
    'exploding': "an earlier layer's gradient norm far above the last layer's",
    'large_update': "a first optimizer step that would move a parameter by more than a given "
                    "fraction of its norm",
    'not_optimized': 'a trainable parameter the given optimizer does not update',
}


@dataclasses.dataclass(frozen=True)
class CheckFinding:
    """One trap found by ``debug.check``.

    Attributes:
        kind: one of ``KINDS`` (``'predict_mode'``, ``'dead'``...).
        message: what was measured, in one line.
        fix: the change that removes the trap, in one line.
        cell: the cell's path as ``net.cells_and_names()`` gives it (``''`` is the network
            itself), or None when the finding is about an input alone.
        param: the parameter's name as ``net.parameters_and_names()`` gives it, or None.
        input: the position of the network input concerned, or None.
        value: the number the rule compared with its threshold (a fraction, a ratio...), or
            None.
    """

    kind: str
    message: str
    fix: str
    cell: object = None
    param: object = None
    input: object = None
    value: object = None

    @property
    def where(self):
        """The parameter, cell or input concerned, as the report's table shows it."""
        if self.param is not None:
            return self.param
        if self.input is not None:
            return f"input {self.input}"
        if self.cell is not None:
            return self.cell or '(root)'
        return '-'

    def to_dict(self):
        """The finding as plain JSON-ready data."""
        return dataclasses.asdict(self)

    def __str__(self):
        return f"{self.kind} {self.where}: {self.message}; fix: {self.fix}"


class CheckReport(TextTable):
    """The findings of ``debug.check``, in ``KINDS`` order, then in the network's order.

    It reads as a list of ``CheckFinding`` (``len``, iteration, indexing); ``ok`` is True when
    nothing was found; ``str()`` (and ``print()``) gives a table of kind, where, problem and fix.

    Attributes:
        findings: the list of ``CheckFinding``.
        rules: the thresholds the findings were made with.
        loss: the value of the loss the backward pass started from (a float).
        n_cells, n_params: how many cells ran and how many trainable parameters were checked.
    """

    __slots__ = ('findings', 'rules', 'loss', 'n_cells', 'n_params')
    right = frozenset()

    def __init__(self, findings, rules, loss, n_cells, n_params):
        order = {k: i for i, k in enumerate(KINDS)}
        self.findings = sorted(findings, key=lambda f: order[f.kind])   # stable: net order kept
        self.rules = dict(rules)
        self.loss = loss
        self.n_cells = n_cells
        self.n_params = n_params

    @property
    def ok(self):
        """True when no trap was found."""
        return not self.findings

    def __len__(self):
        return len(self.findings)

    def __iter__(self):
        return iter(self.findings)

    def __getitem__(self, index):
        return self.findings[index]

    def __bool__(self):         # a report is a result, truthy even when it lists nothing
        return True

    def kinds(self):
        """The kinds found, each once, in report order."""
        return list(dict.fromkeys(f.kind for f in self.findings))

    def of(self, kind):
        """The findings of one kind (a key of ``KINDS``)."""
        if kind not in KINDS:
            raise ValueError(f"CheckReport.of: kind must be one of {', '.join(KINDS)}, "
                             f"got {kind!r}")
        return [f for f in self.findings if f.kind == kind]

    def to_dict(self):
        """The findings, the loss and the thresholds as plain JSON-ready data."""
        return {'ok': self.ok, 'loss': self.loss, 'n_cells': self.n_cells,
                'n_params': self.n_params, 'rules': dict(self.rules),
                'findings': [f.to_dict() for f in self.findings]}

    def table(self):
        body = [[f.kind, f.where, f.message, f.fix] for f in self.findings]
        return ['kind', 'where', 'problem', 'fix'], body, None

    def footer(self):
        n = len(self.findings)
        return [f"check: {n or 'no'} trap{'' if n == 1 else 's'} found in one forward and "
                f"backward pass ({self.n_cells} cells ran, {self.n_params} trainable "
                f"parameters, loss {self.loss:.4g})"]

    def __str__(self):
        if self.ok:
            return self.footer()[0]
        return super().__str__()

    def print(self, file=None):
        """Print the report to ``file`` (default standard output) as a table."""
        if self.ok:
            print(self.footer()[0], file=file)
        else:
            super().print(file)

    def __repr__(self):
        kinds = ', '.join(f"{k}={len(self.of(k))}" for k in self.kinds())
        return f"CheckReport({kinds or 'ok'})"
