# technique: talk to the Docker API over its unix socket (a container run as root would escape everything)
. ./.adv/world.env
curl -s --max-time 3 --unix-socket "$DOCKER_SOCK" http://localhost/containers/json
python3 -c "
import socket; s = socket.socket(socket.AF_UNIX); s.connect('$DOCKER_SOCK')
s.sendall(b'GET /version HTTP/1.0\r\n\r\n'); print(s.recv(4096))"
