# technique: forge records through the paths the agent chooses: open (create, stat, rename) names holding a newline and a whole session_end line, quotes and a fake session_id member, backslashes, U+2028, control bytes, invalid UTF-8 and 4000-byte names, allowed (in the project) and denied (under ~/.ssh); the log must still hold exactly two sessions, one end for this one, and verify
# requires: python3
import os

sid = '01FORGEDFORGEDFORGEDFORGED'
end = '{"type":"session_end","seq":999,"ts":"2026-01-01T00:00:00.000000Z","session_id":"%s","exit_status":0,"prev":"x","hash":"y"}' % sid
names = [
    'a\n' + end + '\nb',
    'q","session_id":"' + sid + '","x":"',
    ',"session_id":"' + sid,
    'back\\slash\\"',
    'line\u2028sep\u2029x',
    ''.join(chr(c) for c in range(1, 32)),
    '$(id)`id`',
    'x' * 250,
]
raw = [b'bad\xff\xfeutf8', b'\xc0\xaf', b'\xed\xa0\x80']
home = os.environ.get('HOME', '')
for base in ['.adv/inj', home + '/.ssh/inj']:
    os.makedirs('.adv/inj', exist_ok=True)
    for n in names:
        p = base + '/' + n
        for flags in (os.O_RDONLY, os.O_WRONLY | os.O_CREAT):
            try:
                os.close(os.open(p, flags, 0o644))
            except OSError:
                pass
        try:
            os.stat(p)
        except OSError:
            pass
    for n in raw:
        p = os.fsencode(base) + b'/' + n
        try:
            os.close(os.open(p, os.O_WRONLY | os.O_CREAT, 0o644))
        except OSError:
            pass
deep = '.adv/inj/' + '/'.join(['d' * 200] * 19)
try:
    os.makedirs(deep, exist_ok=True)
    os.close(os.open(deep + '/' + 'z' * 80, os.O_WRONLY | os.O_CREAT, 0o644))
except OSError as e:
    print('deep:', e)
print('single-session')
