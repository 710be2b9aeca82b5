"""pngread.py -- a small PNG decoder for the CLI tests (python3 standard library only).

read_png(path) returns (width, height, bit_depth, colour_type, rows): rows is a list of height
lists, each holding width * channels integer samples (gray: 1 channel, RGB: 3), 16-bit samples
read big-endian as the PNG specification stores them. Only what cnoise writes is supported:
non-interlaced gray (colour type 0) or RGB (colour type 2) of bit depth 8 or 16. Every chunk's
CRC is checked, and anything unexpected raises ValueError.
"""
import struct
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG signature")
    pos, ihdr, idat, seen_end = 8, None, b"", False
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        ctype = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
            raise ValueError("bad CRC in chunk %r" % ctype)
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat += body
        elif ctype == b"IEND":
            seen_end = True
            pos += 12 + length
            break
        pos += 12 + length
    if ihdr is None or not seen_end or pos != len(data):
        raise ValueError("missing IHDR or IEND, or bytes after IEND")
    width, height, depth, ctype, comp, filt, interlace = ihdr
    if ctype not in (0, 2) or depth not in (8, 16) or comp or filt or interlace:
        raise ValueError("unsupported PNG: colour type %d, depth %d, interlace %d" % (ctype, depth, interlace))
    channels = 1 if ctype == 0 else 3
    bpp = channels * depth // 8  # bytes per pixel
    stride = width * bpp
    raw = zlib.decompress(idat)
    if len(raw) != height * (stride + 1):
        raise ValueError("image data has %d bytes, expected %d" % (len(raw), height * (stride + 1)))
    prev = bytearray(stride)
    rows = []
    for j in range(height):
        f = raw[j * (stride + 1)]
        line = bytearray(raw[j * (stride + 1) + 1:(j + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
            elif f != 0:
                raise ValueError("bad filter type %d" % f)
        prev = line
        if depth == 8:
            rows.append(list(line))
        else:
            rows.append([line[k] << 8 | line[k + 1] for k in range(0, stride, 2)])
    return width, height, depth, ctype, rows
