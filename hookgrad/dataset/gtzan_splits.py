"""The GTZAN split lists MindSpore's ``GTZANDataset`` reads for ``usage`` 'train', 'valid' and
'test' (the filtered splits of Kereliuk et al., also used by torchaudio), as file-number ranges
per genre: ``'blues': '12-14,20'`` is blues.00012, blues.00013, blues.00014 and blues.00020,
in the list's order."""

__all__ = ['split_names']

_SPLITS = {
    'train': [
        ('blues', '29-49,73-97'),
        ('classical', '30-33,43-48,50-67,80-99'),
        ('country', '19-26,28-29,65-99'),
        ('disco', '5,15-20,22-37,39-45,47,49,53-54,56-57,59,61,70,73-74,89'),
        ('hiphop', '2-25,28-29,31-38,41-42,55-61,77-80'),
        ('jazz', '0-1,11-24,41,47-72'),
        ('metal', '2-3,5,21,24,35,46-57,59-66,69,71-72,79-80,84,86,89-99'),
        ('pop', '2-9,11-12,16-20,23-29,31-36,38-42,44,46,49-50,80,97-99'),
        ('reggae', '0-2,4,6,9,11-12,14-32,42-45,49-51,54-60,63,69'),
        ('rock', '0-9,16-26,57-70,91-99'),
    ],
    'valid': [
        ('blues', '0-11,50-60'),
        ('classical', '0-10,68-76'),
        ('country', '0-7,9-18,27,41-42,45,49'),
        ('disco', '0,2-4,6-14,46,48,52,67-68,72,75,90,95'),
        ('hiphop', '81-98'),
        ('jazz', '2-10,25-32'),
        ('metal', '0-1,6-11,16-20,36-37,68,76-77,81-82'),
        ('pop', '10,53,55,58-62,81,83-86'),
        ('reggae', '61-62,70,72,74,76-78,85,92-99'),
        ('rock', '38,49-56,71-85'),
    ],
    'test': [
        ('blues', '12-28,61-72,98-99'),
        ('classical', '11-29,34-41,49,77-79'),
        ('country', '30-40,43-44,46-48,50-51,53-64'),
        ('disco', '1,21,58,62-66,69,76-88,91-94,96-97,99'),
        ('hiphop', '0,26-27,30,40,43-45,51-54,62-75,99'),
        ('jazz', '73-99'),
        ('metal', '12-15,22-23,25-33,38-39,67,70,73-75,78,83,85,87-88'),
        ('pop', '0-1,13-14,43,63-66,69-79,82,88-96'),
        ('reggae', '34-40,46-48,52-53,64-68,71,79,82-84,87-90'),
        ('rock', '10-15,27-37,39-48,86-90'),
    ],
}


def split_names(usage):
    """The file stems (``blues.00012``...) of ``usage``, in the list's order."""
    out = []
    for genre, spans in _SPLITS[usage]:
        for span in spans.split(','):
            first, _, last = span.partition('-')
            out += [f'{genre}.{k:05d}' for k in range(int(first), int(last or first) + 1)]
    return out
