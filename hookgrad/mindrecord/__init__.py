"""``hookgrad.mindrecord``: MindSpore's ``FileWriter``/``FileReader`` API over hookgrad's own
MindRecord format (one safetensors file per shard, see docs/data.md), read back by
``hookgrad.dataset.MindDataset``. Files of MindSpore's binary MindRecord format are not read.
"""
from .exceptions import (MindRecordException, ParamValueError, ParamTypeError,
                         MRMInvalidSchemaError, MRMAddSchemaError, MRMDefineIndexError)
from .filewriter import FileWriter
from .filereader import FileReader

__all__ = ['FileWriter', 'FileReader', 'MindRecordException', 'ParamValueError',
           'ParamTypeError', 'MRMInvalidSchemaError', 'MRMAddSchemaError',
           'MRMDefineIndexError']
