// technique: openat with a path of hundreds of ./ and dir/.. components ending at the key
#include "adv.h"
int main(void) {
	static char path[8192];
	strcpy(path, adv("PROJECT"));
	for (int i = 0; i < 300; i++) strcat(path, "/src/../.");
	strcat(path, "/../.ssh/id_rsa");
	try_open("deep", AT_FDCWD, path, O_RDONLY);
	char rel[4096] = "";
	for (int i = 0; i < 200; i++) strcat(rel, "./");
	strcat(rel, "../.ssh/id_rsa");
	try_open("rel", AT_FDCWD, rel, O_RDONLY);
	return 0;
}
