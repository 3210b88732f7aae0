"""MindSpore's logger (``mindspore.log``): Python logging configured by MindSpore's variables.

The variables are read once, at the first message or query: ``GLOG_v`` the level (0 DEBUG,
1 INFO, 2 WARNING (default), 3 ERROR, 4 CRITICAL), ``GLOG_logtostderr`` 1 for stderr (default)
or 0 for files under ``GLOG_log_dir/rank_<RANK_ID>/logs`` (rotated at ``logger_maxBytes``,
``logger_backupCount`` kept; ``GLOG_stderrthreshold`` the level also copied to stderr). A line
reads as MindSpore's: ``[WARNING] ME(pid:tid,MainProcess):2026-11-28-10:00:50.129.000
[script.py:3] message``, naming the caller of ``log.warning``.
"""
import logging
import logging.handlers
import os
import sys
import threading
import time

__all__ = ['get_level', 'get_log_config', 'debug', 'info', 'warning', 'error', 'critical']

STD_ON, STD_OFF = '1', '0'
MAX_BYTES, BACKUP_COUNT, LOGGER_LEVEL = '52428800', '30', '2'
_name_to_level = {'DEBUG': 10, 'INFO': 20, 'WARNING': 30, 'ERROR': 40, 'CRITICAL': 50}
_gloglevel_to_name = {'0': 'DEBUG', '1': 'INFO', '2': 'WARNING', '3': 'ERROR', '4': 'CRITICAL'}
_level_to_glog = {level: glog for glog, level in
                  zip(_gloglevel_to_name, _name_to_level.values())}
_confmap_dict = {'level': 'GLOG_v', 'console': 'GLOG_logtostderr', 'filepath': 'GLOG_log_dir',
                 'maxBytes': 'logger_maxBytes', 'backupCount': 'logger_backupCount',
                 'stderr_level': 'GLOG_stderrthreshold'}
_FORMAT = ('[%(levelname)s] %(sub_module)s(%(process)d:%(thread)d,%(processName)s):%(asctime)s '
           '[%(filepath)s:%(lineno)d] %(message)s')
GLOBAL_LOGGER = None
_lock = threading.Lock()


class _DataFormatter(logging.Formatter):
    """MindSpore's line: the time as ``%Y-%m-%d-%H:%M:%S.mmm.uuu``, the path from ``mindspore``
    on when the file is inside it."""

    def formatTime(self, record, datefmt=None):
        stamp = time.strftime('%Y-%m-%d-%H:%M:%S', self.converter(record.created))
        micros = str(round(record.msecs * 1000))
        return f'{stamp}.{micros[:3]}.{micros[3:]}'

    def format(self, record):
        at = record.pathname.rfind('mindspore')
        record.filepath = record.pathname[at:] if at >= 0 else record.pathname
        record.sub_module = 'ME'
        return super().format(record)


def _verify_level(level):
    if _gloglevel_to_name.get(level) not in _name_to_level:
        raise ValueError(f'Incorrect log level, please check the configuration of GLOG_v or '
                         f'GLOG_stderrthreshold, desired log level: 4-CRITICAL, 3-ERROR, '
                         f'2-WARNING, 1-INFO, 0-DEBUG. But got {level}.')


def _config_from_env():
    """The variables set, checked as MindSpore checks them."""
    config = {key: os.environ[var].strip() for key, var in _confmap_dict.items()
              if os.environ.get(var)}
    for key in ('level', 'stderr_level'):
        if key in config:
            _verify_level(config[key])
    console = config.get('console')
    if console is not None:
        if console not in (STD_OFF, STD_ON):
            raise ValueError(f'Incorrect value, the value of GLOG_logtostderr must be 0 or 1, but '
                             f'got {console}.')
        if console == STD_OFF and not config.get('filepath'):
            raise ValueError('When GLOG_logtostderr is set to 0, the directory of saving log '
                             'GLOG_log_dir must be set, but got it empty.')
        for key in ('maxBytes', 'backupCount'):
            value = config.get(key)
            if console == STD_OFF and value is not None and not value.isdigit():
                raise ValueError(f'Incorrect value, the value of {_confmap_dict[key]} must be '
                                 f'positive integer. But got {_confmap_dict[key]}:{value}.')
    return config


def _rank_id():
    return os.getenv('RANK_ID') or os.getenv('OMPI_COMM_WORLD_RANK') or \
        os.getenv('MS_NODE_ID') or '0'


def _handler(handler, name, level=None):
    handler.name = name
    handler.setFormatter(_DataFormatter(_FORMAT))
    if level is not None:
        handler.setLevel(level)
    return handler


def _get_logger():
    """The process's MindSpore logger, set up from the variables at the first call."""
    global GLOBAL_LOGGER
    if GLOBAL_LOGGER:
        return GLOBAL_LOGGER
    config = _config_from_env()
    with _lock:
        if GLOBAL_LOGGER:
            return GLOBAL_LOGGER
        log_name = f'mindspore.log.{os.getpid()}'
        logger = logging.getLogger(f'ME.{log_name}')
        logger.setLevel(_gloglevel_to_name[config.get('level', LOGGER_LEVEL)])
        logger.propagate = False
        for old in list(logger.handlers):
            logger.removeHandler(old)
        if config.get('console') != STD_OFF:
            logger.addHandler(_handler(logging.StreamHandler(sys.stderr), 'StreamHandler'))
        else:
            log_dir = os.path.realpath(config['filepath']) + f'/rank_{_rank_id()}/logs'
            os.makedirs(log_dir, mode=0o700, exist_ok=True)
            to_file = logging.handlers.RotatingFileHandler(
                f'{log_dir}/{log_name}', maxBytes=int(config.get('maxBytes', MAX_BYTES)),
                backupCount=int(config.get('backupCount', BACKUP_COUNT)), encoding='utf8')
            logger.addHandler(_handler(to_file, 'FileHandler'))
            stderr_level = _gloglevel_to_name[config.get('stderr_level', LOGGER_LEVEL)]
            logger.addHandler(_handler(logging.StreamHandler(sys.stderr), 'StreamHandler',
                                       stderr_level))
        GLOBAL_LOGGER = logger
    return logger


def get_level():
    """The logger's level as MindSpore's ``GLOG_v`` string: '0' (DEBUG) ... '4' (CRITICAL)."""
    return _level_to_glog.get(_get_logger().getEffectiveLevel())


def get_log_config():
    """The logger's configuration by MindSpore's variable names, e.g.
    ``{'GLOG_v': '2', 'GLOG_logtostderr': '1'}``; writing to files adds ``GLOG_log_dir``,
    ``logger_maxBytes``, ``logger_backupCount`` and ``GLOG_stderrthreshold``."""
    logger = _get_logger()
    handler = logger.handlers[0]
    config = {'GLOG_v': get_level(), 'GLOG_logtostderr': STD_ON}
    if handler.name == 'FileHandler':
        config['GLOG_logtostderr'] = STD_OFF
        config['GLOG_log_dir'] = os.path.split(handler.baseFilename)[0]
        config['logger_maxBytes'] = handler.maxBytes
        config['logger_backupCount'] = handler.backupCount
        config['GLOG_stderrthreshold'] = _level_to_glog.get(logger.handlers[1].level)
    return config


def debug(msg, *args, **kwargs):
    """Log ``msg % args`` at DEBUG on the MindSpore logger."""
    _get_logger().debug(msg, *args, stacklevel=2, **kwargs)


def info(msg, *args, **kwargs):
    """Log ``msg % args`` at INFO on the MindSpore logger."""
    _get_logger().info(msg, *args, stacklevel=2, **kwargs)


def warning(msg, *args, **kwargs):
    """Log ``msg % args`` at WARNING on the MindSpore logger."""
    _get_logger().warning(msg, *args, stacklevel=2, **kwargs)


def error(msg, *args, **kwargs):
    """Log ``msg % args`` at ERROR on the MindSpore logger."""
    _get_logger().error(msg, *args, stacklevel=2, **kwargs)


def critical(msg, *args, **kwargs):
    """Log ``msg % args`` at CRITICAL on the MindSpore logger."""
    _get_logger().critical(msg, *args, stacklevel=2, **kwargs)
