"""MindSpore's attribute methods of every Primitive: ``add_prim_attr``, ``del_prim_attr``,
``init_prim_io_names`` and ``set_prim_instance_name`` (code that subclasses a Primitive calls
them in its ``__init__``), and ``set_user_data`` / ``get_user_data``, any value kept on the
instance under a string key."""


class PrimitiveAttributes:
    """The attribute methods; ``attrs`` is the Primitive's dict of attributes."""

    def add_prim_attr(self, name, value):
        """Set attribute ``name`` (shown in the repr); returns self."""
        self.attrs[name] = value
        setattr(self, name, value)
        return self

    def del_prim_attr(self, name):
        """Remove attribute ``name``; returns self."""
        self.attrs.pop(name, None)
        self.__dict__.pop(name, None)
        return self

    def init_prim_io_names(self, inputs, outputs):
        """Record the input and output names (``input_names``, ``output_names``)."""
        self.add_prim_attr('input_names', inputs)
        self.add_prim_attr('output_names', outputs)

    def set_prim_instance_name(self, instance_name):
        """Name this instance (``instance_name``); returns self."""
        self.instance_name = instance_name
        return self

    def set_user_data(self, key, value):
        """Keep ``value`` (anything) on this instance under the string ``key``."""
        if not isinstance(key, str):
            raise TypeError(f"{self.name}.set_user_data: key must be a str, got "
                            f"{type(key).__name__} {key!r}")
        self.__dict__.setdefault('_user_data', {})[key] = value

    def get_user_data(self, key):
        """The value ``set_user_data`` kept under ``key``.

        Raises:
            RuntimeError: nothing is kept under ``key`` (as MindSpore).
        """
        data = self.__dict__.get('_user_data', {})
        if key not in data:
            raise RuntimeError(f"{self.name}.get_user_data: no user data under the key {key!r}")
        return data[key]
