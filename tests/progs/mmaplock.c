/* Takes a POSIX write lock on FILE, maps it, and has a child process ask
 * whether the lock is still held: "locked" or "unlocked".  SQLite holds
 * such locks on the index of its write-ahead log, which it maps.  POSIX
 * drops all of a process's locks on a file at any close of that file, so
 * a tool that opened a mapped file again to look at it would drop them. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv)
{
   struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
   int fd, status;
   pid_t child;
   if (argc != 2) {
      fprintf(stderr, "usage: mmaplock FILE\n");
      return 2;
   }
   fd = open(argv[1], O_RDWR);
   if (fd < 0 || fcntl(fd, F_SETLK, &lock) != 0) {
      perror(argv[1]);
      return 2;
   }
   if (mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED) {
      perror("mmap");
      return 2;
   }
   child = fork();
   if (child == 0) {
      struct flock ask = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
      int cfd = open(argv[1], O_RDWR);
      if (cfd < 0 || fcntl(cfd, F_GETLK, &ask) != 0) return 2;
      printf("%s\n", ask.l_type == F_UNLCK ? "unlocked" : "locked");
      return 0;
   }
   if (child < 0 || waitpid(child, &status, 0) != child) return 2;
   return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
