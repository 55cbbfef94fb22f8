/* netdelay: the user-space stand-in for `tc qdisc ... netem delay` used by
 * tests/testbed/netfs-up.sh. The CI kernel has no sch_netem and no modules, so the emulated
 * hosts are not joined by veths but by TUN devices, one per host (each in its own network
 * namespace), and this program is the switch between them: it reads every IPv4 packet a host
 * sends, holds it for the one-way delay and writes it to the TUN device of the host that owns
 * the destination address. The round-trip time between two hosts is 2 x the delay (plus
 * ~20-40 us of forwarding).
 *
 * Usage: netdelay -f DELAYFILE NETNS_PATH:IFNAME:IPV4 ...
 *   DELAYFILE holds the one-way delay in microseconds (one integer); it is read at start and
 *   again on SIGHUP (tests/testbed/netfs-rtt.sh), so the RTT changes while connections stay
 *   up. SIGHUP also prints the packet counters to stderr. SIGTERM ends it.
 *   The TUN devices must exist and be configured (ip -n NS tuntap add dev IF mode tun); netdelay
 *   enters each namespace only to attach to its device.
 * Build: cc -O2 -Wall -Wextra -o netdelay netdelay.c   (no dependencies)
 *
 * Packets leave in arrival order (one FIFO): with a constant delay that is also due order, and
 * after a change of the delay it keeps TCP segments in order (no spurious retransmits), at the
 * price of holding a few packets a little longer than the new delay for one RTT. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

enum { MAX_PORTS = 16, PACKET_MAX = 2048 /* > MTU 1500 */, QUEUE_LEN = 16384 /* 32 MiB */ };

struct port {
  int fd;
  uint32_t addr;
  const char *name;
};
struct held {
  uint64_t due_ns;
  int out_fd;
  int len;
  unsigned char data[PACKET_MAX];
};

static struct port ports[MAX_PORTS];
static int nports;
static struct held *queue; /* ring buffer: [first, last) are held */
static unsigned first, last;
static uint64_t delay_ns;
static const char *delay_file;
static volatile sig_atomic_t reload, stop;
static unsigned long long forwarded, dropped_full, dropped_unroutable, dropped_write;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void on_hup(int sig) {
  (void)sig;
  reload = 1;
}
static void on_term(int sig) {
  (void)sig;
  stop = 1;
}

static void read_delay(void) {
  FILE *f = fopen(delay_file, "r");
  long long us = -1;
  if (f == NULL || fscanf(f, "%lld", &us) != 1 || us < 0) {
    fprintf(stderr, "netdelay: cannot read a delay from %s; keeping %llu us\n", delay_file,
            (unsigned long long)(delay_ns / 1000));
  } else {
    delay_ns = (uint64_t)us * 1000;
    fprintf(stderr, "netdelay: one-way delay %lld us\n", us);
  }
  if (f != NULL) fclose(f);
}

/* "NETNS_PATH:IFNAME:IPV4": attach to IFNAME inside that namespace. */
static int attach(char *spec) {
  char *addr = strrchr(spec, ':');
  if (addr == NULL) return -1;
  *addr++ = '\0';
  char *ifname = strrchr(spec, ':');
  if (ifname == NULL) return -1;
  *ifname++ = '\0';
  struct port *p = &ports[nports];
  if (inet_pton(AF_INET, addr, &p->addr) != 1) {
    fprintf(stderr, "netdelay: not an IPv4 address: %s\n", addr);
    return -1;
  }
  int ns = open(spec, O_RDONLY | O_CLOEXEC);
  if (ns < 0 || setns(ns, CLONE_NEWNET) < 0) {
    perror(spec);
    return -1;
  }
  close(ns);
  p->fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  struct ifreq req;
  memset(&req, 0, sizeof req);
  req.ifr_flags = IFF_TUN | IFF_NO_PI; /* bare IPv4 packets, no header */
  strncpy(req.ifr_name, ifname, IFNAMSIZ - 1);
  if (p->fd < 0 || ioctl(p->fd, TUNSETIFF, &req) < 0) {
    perror(ifname);
    return -1;
  }
  p->name = spec;
  nports++;
  return 0;
}

static int route(const unsigned char *packet, ssize_t len) {
  if (len < 20 || (packet[0] >> 4) != 4) return -1; /* IPv4 only (IPv6 is off) */
  uint32_t dst;
  memcpy(&dst, packet + 16, sizeof dst);
  for (int i = 0; i < nports; i++)
    if (ports[i].addr == dst) return ports[i].fd;
  return -1;
}

static void send_due(uint64_t now) {
  while (first != last && queue[first % QUEUE_LEN].due_ns <= now) {
    struct held *h = &queue[first % QUEUE_LEN];
    if (write(h->out_fd, h->data, (size_t)h->len) < 0)
      dropped_write++;
    else
      forwarded++;
    first++;
  }
}

int main(int argc, char **argv) {
  int opt;
  while ((opt = getopt(argc, argv, "f:")) != -1) {
    if (opt == 'f')
      delay_file = optarg;
    else
      return 2;
  }
  if (delay_file == NULL || optind == argc || argc - optind > MAX_PORTS) {
    fprintf(stderr, "usage: netdelay -f DELAYFILE NETNS_PATH:IFNAME:IPV4 ... (at most %d)\n",
            MAX_PORTS);
    return 2;
  }
  int home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  for (int i = optind; i < argc; i++)
    if (attach(argv[i]) < 0) return 1;
  if (setns(home, CLONE_NEWNET) < 0) {
    perror("netdelay: back to its own namespace");
    return 1;
  }
  queue = calloc(QUEUE_LEN, sizeof *queue);
  if (queue == NULL) {
    perror("netdelay: queue");
    return 1;
  }
  prctl(PR_SET_TIMERSLACK, 1UL); /* wake when a packet is due, not 50 us later */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_hup;
  sigaction(SIGHUP, &sa, NULL);
  sa.sa_handler = on_term;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  read_delay();
  fprintf(stderr, "netdelay: switching %d ports\n", nports);

  struct pollfd fds[MAX_PORTS];
  for (int i = 0; i < nports; i++) fds[i] = (struct pollfd){.fd = ports[i].fd, .events = POLLIN};
  while (!stop) {
    if (reload) {
      reload = 0;
      read_delay();
      fprintf(stderr,
              "netdelay: forwarded %llu, dropped: queue full %llu, unroutable %llu, write %llu\n",
              forwarded, dropped_full, dropped_unroutable, dropped_write);
    }
    uint64_t now = now_ns();
    send_due(now);
    struct timespec wait, *waitp = NULL; /* sleep until the next packet is due, or input */
    if (first != last) {
      uint64_t w = queue[first % QUEUE_LEN].due_ns - now;
      wait = (struct timespec){.tv_sec = (time_t)(w / 1000000000u),
                               .tv_nsec = (long)(w % 1000000000u)};
      waitp = &wait;
    }
    int ready = ppoll(fds, (nfds_t)nports, waitp, NULL);
    if (ready < 0 && errno != EINTR) {
      perror("netdelay: ppoll");
      return 1;
    }
    if (ready <= 0) continue;
    now = now_ns();
    for (int i = 0; i < nports; i++) {
      if (!(fds[i].revents & POLLIN)) continue;
      for (int burst = 0; burst < 64; burst++) { /* drain a little, then serve the others */
        struct held *h = &queue[last % QUEUE_LEN];
        ssize_t len = read(ports[i].fd, h->data, sizeof h->data);
        if (len < 0) break;
        int out = route(h->data, len);
        if (out < 0) {
          dropped_unroutable++;
          continue;
        }
        if (delay_ns == 0 && first == last) { /* no delay and nothing held: send now */
          if (write(out, h->data, (size_t)len) < 0)
            dropped_write++;
          else
            forwarded++;
          continue;
        }
        if (last - first >= QUEUE_LEN) {
          dropped_full++;
          continue;
        }
        h->due_ns = now + delay_ns;
        h->out_fd = out;
        h->len = (int)len;
        last++;
      }
    }
  }
  fprintf(stderr, "netdelay: stopped; forwarded %llu packets\n", forwarded);
  return 0;
}
