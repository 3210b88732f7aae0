"""Results shown as tables: rich's table when rich is installed, aligned plain text otherwise."""
import io

_WIDE = 1000    # columns of a table written to a file or a pipe


class TextTable:
    """Base of results printed as a table.

    Subclasses define ``table() -> (columns, body, total)`` (strings; ``total`` may be None),
    ``right`` (the names of right-aligned columns) and optionally ``footer()`` (lines under it).
    """

    __slots__ = ()
    right = frozenset()

    def table(self):
        raise TypeError(f"{type(self).__name__} defines no table()")

    def footer(self):
        """The lines printed under the table."""
        return []

    def __str__(self):
        rich = _rich()
        if rich is None:
            text = _plain(*self.table(), self.right)
        else:
            buf = io.StringIO()
            rich[0](file=buf, width=_WIDE, color_system=None, force_terminal=False).print(
                self._rich_table(rich))
            text = buf.getvalue().rstrip('\n')
        return '\n'.join([text] + self.footer())

    __repr__ = __str__

    def print(self, file=None):
        """Print the table to ``file`` (default standard output), with rich's styles when
        rich is installed."""
        rich = _rich()
        if rich is None:
            print(str(self), file=file)
            return
        console = rich[0](file=file)
        if not console.is_terminal:     # a file or a pipe: the table at its natural width
            console = rich[0](file=file, width=_WIDE, color_system=None)
        console.print(self._rich_table(rich))
        if self.footer():
            console.print('\n'.join(self.footer()))

    def _rich_table(self, rich):
        columns, body, total = self.table()
        table = rich[1]()
        for name in columns:
            table.add_column(name, justify='right' if name in self.right else 'left',
                             overflow='fold')
        for i, cells in enumerate(body):
            table.add_row(*cells, end_section=total is not None and i == len(body) - 1)
        if total is not None:
            table.add_row(*total)
        return table


def _rich():
    """rich's Console and Table classes, or None when rich is not installed."""
    try:
        import rich  # noqa: F401  (first: a loaded rich.console would hide a blocked rich)
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        return None
    return Console, Table


def _plain(columns, body, total, right):
    """The table as aligned plain text."""
    lines = [list(columns)] + body + ([total] if total is not None else [])
    widths = [max(len(line[i]) for line in lines) for i in range(len(columns))]

    def fmt(cells):
        return '  '.join(c.rjust(w) if name in right else c.ljust(w)
                         for c, w, name in zip(cells, widths, columns)).rstrip()
    rule = '  '.join('-' * w for w in widths)
    out = [fmt(columns), rule] + [fmt(c) for c in body]
    if total is not None:
        out += [rule, fmt(total)]
    return '\n'.join(out)
