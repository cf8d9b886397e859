#include <platformpp/platformpp_c.h>

#include <stdio.h>

int main(void) {
  platformpp_client* client = platformpp_client_create(NULL);
  if (!client) return 1;
  platformpp_client_destroy(client);
  printf("consumer_c: platformpp %s\n", platformpp_version_string());
  return 0;
}
