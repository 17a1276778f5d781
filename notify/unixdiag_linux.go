package notify

import (
	"encoding/binary"
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// sock_diag for AF_UNIX (linux/unix_diag.h), missing from x/sys/unix.
const (
	udiagShowName = 0x1 // UDIAG_SHOW_NAME
	udiagShowVFS  = 0x2 // UDIAG_SHOW_VFS
	unixDiagName  = 0   // UNIX_DIAG_NAME attribute
	unixDiagVFS   = 1   // UNIX_DIAG_VFS attribute
	unixDiagReq   = 24  // sizeof(struct unix_diag_req)
	unixDiagMsg   = 16  // sizeof(struct unix_diag_msg)
)

var errNoVFS = errors.New("socket has no bound file")

// boundInode returns the device and inode of the file a unix socket is
// bound to, asked of the kernel by the socket's own inode (sockIno, the
// st_ino of an fstat on the socket): unlike a lookup of the name it was
// bound at, no rename by another process can change the answer. The inode
// is the low 32 bits the kernel reports.
func boundInode(sockIno uint64) (dev uint64, ino uint32, err error) {
	b, err := unixDiagQuery(sockIno, udiagShowVFS)
	if err != nil {
		return 0, 0, err
	}
	return parseUnixDiag(b, sockIno)
}

// boundName returns the address a unix socket is bound to (an abstract
// name with its leading NUL), asked of the kernel by the socket's inode:
// ENOENT when no such socket exists any more. A name stays bound to its
// socket until the socket is destroyed, so a socket that exists and holds
// the name has held it since its bind.
func boundName(sockIno uint64) (string, error) {
	b, err := unixDiagQuery(sockIno, udiagShowName)
	if err != nil {
		return "", err
	}
	attr, err := unixDiagAttr(b, sockIno, unixDiagName)
	if err != nil {
		return "", err
	}
	return string(attr), nil
}

// unixDiagQuery asks sock_diag about the unix socket with inode sockIno
// and returns the answer.
func unixDiagQuery(sockIno uint64, show uint32) ([]byte, error) {
	s, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("open sock_diag: %w", err)
	}
	defer unix.Close(s)
	req := make([]byte, unix.NLMSG_HDRLEN+unixDiagReq)
	le := binary.LittleEndian
	le.PutUint32(req[0:], uint32(len(req)))
	le.PutUint16(req[4:], unix.SOCK_DIAG_BY_FAMILY)
	le.PutUint16(req[6:], unix.NLM_F_REQUEST)
	body := req[unix.NLMSG_HDRLEN:]
	body[0] = unix.AF_UNIX
	le.PutUint32(body[4:], ^uint32(0)) // every state
	le.PutUint32(body[8:], uint32(sockIno))
	le.PutUint32(body[12:], show)
	le.PutUint32(body[16:], ^uint32(0)) // no cookie
	le.PutUint32(body[20:], ^uint32(0))
	if err := unix.Sendto(s, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return nil, fmt.Errorf("query sock_diag: %w", err)
	}
	buf := make([]byte, 4096)
	n, _, err := unix.Recvfrom(s, buf, 0)
	if err != nil {
		return nil, fmt.Errorf("read sock_diag: %w", err)
	}
	return buf[:n], nil
}

// parseUnixDiag finds the UNIX_DIAG_VFS attribute in a sock_diag answer
// about socket inode sockIno.
func parseUnixDiag(b []byte, sockIno uint64) (uint64, uint32, error) {
	attr, err := unixDiagAttr(b, sockIno, unixDiagVFS)
	if err != nil {
		if errors.Is(err, errNoAttr) {
			return 0, 0, errNoVFS
		}
		return 0, 0, err
	}
	if len(attr) < 8 {
		return 0, 0, errNoVFS
	}
	le := binary.LittleEndian
	ino, kdev := le.Uint32(attr[0:]), le.Uint32(attr[4:])
	// The kernel's dev_t is MAJOR<<20 | MINOR; stat's is encoded.
	return unix.Mkdev(kdev>>20, kdev&0xfffff), ino, nil
}

var errNoAttr = errors.New("sock_diag answer has no such attribute")

// unixDiagAttr returns the payload of attribute typ in a sock_diag answer
// about socket inode sockIno.
func unixDiagAttr(b []byte, sockIno uint64, typ uint16) ([]byte, error) {
	le := binary.LittleEndian
	if len(b) < unix.NLMSG_HDRLEN {
		return nil, fmt.Errorf("read sock_diag: %w", unix.EBADMSG)
	}
	size, mtyp := int(le.Uint32(b[0:])), le.Uint16(b[4:])
	if mtyp == unix.NLMSG_ERROR && len(b) >= unix.NLMSG_HDRLEN+4 {
		return nil, fmt.Errorf("query sock_diag: %w", unix.Errno(-int32(le.Uint32(b[unix.NLMSG_HDRLEN:]))))
	}
	if mtyp != unix.SOCK_DIAG_BY_FAMILY || size > len(b) || size < unix.NLMSG_HDRLEN+unixDiagMsg {
		return nil, fmt.Errorf("read sock_diag: %w", unix.EBADMSG)
	}
	msg := b[unix.NLMSG_HDRLEN:size]
	if uint64(le.Uint32(msg[4:])) != sockIno&0xffffffff {
		return nil, fmt.Errorf("read sock_diag: %w", unix.EBADMSG)
	}
	for attrs := msg[unixDiagMsg:]; len(attrs) >= 4; {
		alen, atyp := int(le.Uint16(attrs[0:])), le.Uint16(attrs[2:])
		if alen < 4 || alen > len(attrs) {
			break
		}
		if atyp == typ {
			return attrs[4:alen], nil
		}
		attrs = attrs[min(len(attrs), (alen+3)&^3):]
	}
	return nil, errNoAttr
}
