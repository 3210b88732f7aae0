"""The MindRecord exception classes, named as MindSpore's ``mindspore.mindrecord`` ones."""

__all__ = ['MindRecordException', 'ParamValueError', 'ParamTypeError', 'MRMInvalidSchemaError',
           'MRMAddSchemaError', 'MRMDefineIndexError']


class MindRecordException(Exception):
    """Base class of MindRecord errors; the message starts with the class name in brackets."""

    def __init__(self, detail=''):
        super().__init__(f"[{type(self).__name__}]: {detail}")


class ParamValueError(MindRecordException):
    """An argument has a bad value."""


class ParamTypeError(MindRecordException):
    """An argument has a bad type."""


class MRMInvalidSchemaError(MindRecordException):
    """A schema given to ``FileWriter.add_schema`` is malformed."""


class MRMAddSchemaError(MindRecordException):
    """A schema cannot be added (a writer takes one schema)."""


class MRMDefineIndexError(MindRecordException):
    """An index field is not a scalar field of the schema."""
