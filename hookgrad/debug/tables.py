"""Results shown as tables: rich's table when rich is installed, aligned plain text otherwise."""
import io

_WIDE = 1000    # columns of a table written to a file or a pipe
_MIN_TEXT = 4   # a text column keeps this many columns before numbers would have to break


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
        else:
            console.print(self._rich_table(rich, console.width))
        if self.footer():
            console.print('\n'.join(self.footer()))

    def _rich_table(self, rich, width=None):
        """rich's Table; with ``width`` (a terminal's columns), the text columns share what the
        numbers leave, so that a number never breaks and the table fits."""
        columns, body, total = self.table()
        rows = body + ([total] if total is not None else [])
        numbers = {}
        for k, name in enumerate(columns):
            if name in self.right:      # wrapped at spaces only: a number never breaks
                numbers[k] = max(len(word) for cell in [name] + [r[k] for r in rows]
                                 for word in cell.split() or [''])
        text_width = None
        if width is not None:
            spare = width - sum(numbers.values()) - 3 * len(columns) - 1
            text_width = max(_MIN_TEXT, spare // max(1, len(columns) - len(numbers)))
        table = rich[1]()
        for k, name in enumerate(columns):
            if k in numbers:
                table.add_column(name, justify='right', overflow='fold', min_width=numbers[k],
                                 max_width=None if width is None else numbers[k])
            else:                       # wraps at spaces; folds only a longer word
                table.add_column(name, justify='left', overflow='fold', max_width=text_width)
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
