"""FilterWikipediaXML (MindSpore 2.10's outputs, recorded), not_random, Plugin and the video
names."""
import numpy as np
import pytest

import hookgrad.dataset as ds
import hookgrad.dataset.text as text
import hookgrad.dataset.transforms as T
import hookgrad.dataset.vision as V

# (input, MindSpore 2.10's FilterWikipediaXML output)
MINDSPORE_CASES = [
    ("Welcome    to    China", "welcome to china"), ("!!!", ""), ("ABC", "abc"),
    ("Hello, World 2023!", "hello world two zero two three"),
    ('<text xml:space="preserve">The [[cat|Cats]] sat.</text>', ""),
    ("#REDIRECT [[Foo]]", ""), ("a {{cite web|url=x}} b", "a cite web url x b"),
    ("[http://x.com link text] end", "http x com link text end"),
    ("&lt;ref&gt;note&lt;/ref&gt; after", "ref note ref after"),
    ("[[Image:foo.jpg|thumb|A caption]] next", "image foo jpg thumb a caption next"),
    ("'''bold''' and ''it''", "bold and it"), ("x &amp; y &nbsp; z", "x y z"),
    ("[[Category:Stuff]] tail", "category stuff tail"), ("<ref>cite</ref>keep", "keep"),
    ("Zoë café", "zo caf"), ("line1\nline2", "line one line two"), ("tab\there", "tab here"),
    ("  lead and trail  ", "lead and trail"), ("", ""),
    ("012 3 45", "zero one two three four five"), ("a-b_c.d", "a b c d"),
    ("[[de:Katze]] ok", "de katze ok"), ("Ring Road", "ing oad"), ("{{x}} y", "x y"),
    ("{a} b", "a b"), ("[[a|b]] c", "a b c"), ("<ref>r</ref> d", "d"),
    ("q\n\nr\ns", "qnr s"), ("Tab\tX\n Y", "tab xy"), ("[[fr:Chat]] z", "fr chat z"),
    ("pic|thumb|left|200px yes", "pic thumb left two zero zero px yes"),
    ("&quot;q&quot;", "q")]


@pytest.mark.parametrize('given, expected', MINDSPORE_CASES)
def test_filter_wikipedia_xml_as_mindspore(given, expected):
    assert str(text.FilterWikipediaXML()(given)) == expected


def test_filter_wikipedia_xml_in_a_pipeline_and_errors():
    data = ds.NumpySlicesDataset({'text': ["Welcome    to    China", "!!!", "ABC"]},
                                 shuffle=False).map(text.FilterWikipediaXML())
    assert [str(r['text']) for r in data.create_dict_iterator(output_numpy=True)] == \
        ['welcome to china', '', 'abc']
    with pytest.raises(RuntimeError, match="input is not of type string"):
        text.FilterWikipediaXML()(np.array([1, 2]))


def test_not_random_marks_functions():
    def f(x):
        return x
    assert T.not_random(f) is f and f.random is False
    assert V.not_random is T.not_random


def test_plugin_and_video_raise_with_the_alternative(tmp_path):
    with pytest.raises(TypeError, match="Argument lib_path with value 3"):
        T.Plugin(3, 'f')
    with pytest.raises(RuntimeError, match="Plugin\\('lib.so', 'Decode'\\) is not supported"):
        T.Plugin('lib.so', 'Decode')
    with pytest.raises(RuntimeError, match="DecodeVideo is not supported.*PyAV or OpenCV"):
        V.DecodeVideo()
    video = tmp_path / 'a.mp4'
    video.write_bytes(b'\x00')
    for fn in (V.VideoDecoder, V.read_video, V.read_video_timestamps):
        with pytest.raises(RuntimeError, match="is not supported: hookgrad has no video codec"):
            fn(str(video))
        with pytest.raises(ValueError, match="does not exist"):
            fn(str(tmp_path / 'missing.mp4'))
